/**
 * A whole payroll-integration flow through a client generated from the service's OpenAPI document:
 * create an organization, exchange its key for a token, set up a location, a role, a staff member
 * and a break type, record a shift with a break, list the week, create and activate a time-off
 * policy, set the worker's balance, file a request, approve it, and export the week for payroll
 * as JSON rows and as the CSV file.
 *
 * Every request and answer is typed from `api.d.ts` (`npx openapi-typescript …/api/openapi.json
 * -o api.d.ts`): no casts, no `any`. Run: API_URL=http://localhost:4000 PLATFORM_API_KEY=… node dist/flow.mjs
 */
import { pathToFileURL } from "node:url";
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Shift = components["schemas"]["Shift"];
type ShiftExportRow = components["schemas"]["ShiftExportRow"];
type TimeOffRequest = components["schemas"]["TimeOffRequest"];
type WorkerPolicy = components["schemas"]["WorkerPolicy"];

/** What the flow made and read, for whoever runs it to check. */
export interface FlowResult {
  organizationId: string;
  tokenType: string;
  shift: Shift;
  weekShiftIds: string[];
  weekPayableMinutes: number;
  balance: WorkerPolicy;
  request: TimeOffRequest;
  exported: ShiftExportRow[];
  /** The same week as the CSV file payroll imports: the header line, then one line per shift. */
  exportedCsv: string[];
}

/** The answer's data, or an error naming the step, the status and the service's error body. */
function must<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${step} answered ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function runFlow(apiUrl: string, platformKey: string): Promise<FlowResult> {
  // Creating an organization needs the platform key; the answer holds its first API key, shown once.
  const platform = createClient<paths>({ baseUrl: apiUrl, headers: { Authorization: `Bearer ${platformKey}` } });
  const created = must("create organization", await platform.POST("/api/organizations", { body: { name: "Corner Bakery", timezone: "America/New_York" } }));
  const org = created.organization.id;

  // The key is exchanged for a short-lived bearer token; without staffId it acts for the whole organization.
  const anonymous = createClient<paths>({ baseUrl: apiUrl });
  const token = must("token exchange", await anonymous.POST("/api/auth/token-exchange", { body: { apiKey: created.apiKey } }));
  const api = createClient<paths>({ baseUrl: apiUrl, headers: { Authorization: `${token.tokenType} ${token.accessToken}` } });
  const inOrg = { path: { org } };

  const location = must(
    "location",
    await api.POST("/api/organizations/{org}/locations", { params: inOrg, body: { name: "Main Street", timezone: "America/New_York" } }),
  );
  const role = must("role", await api.POST("/api/organizations/{org}/roles", { params: inOrg, body: { name: "Baker", hourlyWage: 21.5 } }));
  const baker = must(
    "staff member",
    await api.POST("/api/organizations/{org}/staff", {
      params: inOrg,
      body: { name: "Ada Baker", externalEmployeeId: "E-100", payrollId: "P-100", roleIds: [role.id], locationIds: [location.id] },
    }),
  );
  const lunch = must(
    "break type",
    await api.POST("/api/organizations/{org}/locations/{id}/breaks", {
      params: { path: { org, id: location.id } },
      body: { name: "Lunch", durationMinutes: 30, paid: false, mandatory: false },
    }),
  );

  // Times without an offset are read in the location's time zone; the break takes the rest from its type.
  const shift = must(
    "shift",
    await api.POST("/api/timesheets", {
      body: {
        employeeId: baker.id,
        locationId: location.id,
        roleId: role.id,
        startTime: "2026-02-23T09:00:00",
        endTime: "2026-02-23T17:00:00",
        breaks: [{ startTime: "2026-02-23T12:00:00", endTime: "2026-02-23T12:30:00", typeId: lunch.id }],
      },
    }),
  );
  const week = must(
    "week",
    await api.GET("/api/timesheets", { params: { query: { startDate: "2026-02-23", endDate: "2026-03-01", locationId: location.id } } }),
  );

  const vacation = must("policy types", await api.GET("/api/organizations/{org}/policy-types", { params: inOrg })).find((t) => t.type === "Vacation");
  if (!vacation) throw new Error("the organization has no Vacation policy type");
  const draft = must(
    "policy",
    await api.POST("/api/organizations/{org}/policies", {
      params: inOrg,
      body: { name: "Vacation", typeId: vacation.id, defaultSettings: { assignedStaff: { type: "All" } } },
    }),
  );
  must("activate", await api.PATCH("/api/organizations/{org}/policies/{id}/activate", { params: { path: { org, id: draft.id } } }));
  const balance = must(
    "balance",
    await api.PUT("/api/organizations/{org}/policies/{policyId}/workers/{workerId}/balance", {
      params: { path: { org, policyId: draft.id, workerId: baker.id } },
      body: { hoursBalance: 40, note: "Opening balance" },
    }),
  );

  const filed = must(
    "time-off request",
    await api.POST("/api/organizations/{org}/time-off-requests", {
      params: inOrg,
      body: { policyId: draft.id, workerId: baker.id, startTime: "2026-03-16T00:00:00", endTime: "2026-03-16T23:59:59", isAllDay: true, note: "Family visit" },
    }),
  );
  const request = must("approve", await api.POST("/api/organizations/{org}/time-off-requests/{id}/approve", { params: { path: { org, id: filed.id } } }));

  const exported = must(
    "export",
    await api.GET("/api/timesheets/export", { params: { query: { startDate: "2026-02-23", endDate: "2026-03-01", format: "json" } } }),
  );
  // The document declares CSV (a string) and JSON rows for this path; format=json answers the rows.
  if (!Array.isArray(exported)) throw new Error("the JSON export did not answer rows");
  // CSV, the default, is text: openapi-fetch parses every answer as JSON unless `parseAs` says otherwise.
  const csv = must(
    "CSV export",
    await api.GET("/api/timesheets/export", { params: { query: { startDate: "2026-02-23", endDate: "2026-03-01" } }, parseAs: "text" }),
  );

  return {
    organizationId: org,
    tokenType: token.tokenType,
    shift,
    weekShiftIds: week.shifts.map((s) => s.id),
    weekPayableMinutes: week.shifts.reduce((sum, s) => sum + s.payableDuration, 0),
    balance,
    request,
    exported,
    exportedCsv: csv.split("\r\n").filter(Boolean),
  };
}

// Run directly: print what the flow made.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const apiUrl = process.env.API_URL ?? "http://localhost:4000";
  const platformKey = process.env.PLATFORM_API_KEY;
  if (!platformKey) throw new Error("Set PLATFORM_API_KEY to the service's platform key");
  console.log(JSON.stringify(await runFlow(apiUrl, platformKey), null, 2));
}
