import { z } from "zod";
import { addDays, formatLocal, localDate, parseTimestamp } from "../common/time";
import { invalidField } from "../errors/app-error";
import { date, dryRun, McpTool, nextCursor, page, pageOf, slicePage, tool } from "./tool";

/**
 * The tools an assistant is offered: workflows a manager or a worker would ask for, each running
 * the service's own GraphQL operations. Ids in every answer let the assistant follow up.
 */

const PAGE_INFO = "pageInfo { hasNextPage endCursor }";
const id = (what: string) => z.string().min(1).max(100).describe(what);

const plannedShift = z.object({
  id: z.string(),
  workerId: z.string(),
  workerName: z.string().nullable(),
  roleId: z.string(),
  roleName: z.string().nullable(),
  startTime: z.string().describe("Local wall time of the location, with its offset"),
  endTime: z.string(),
  note: z.string().nullable(),
});
type PlannedShiftNode = {
  id: string;
  workerId: string;
  worker: { name: string } | null;
  roleId: string;
  role: { name: string } | null;
  startTime: string;
  endTime: string;
  note: string | null;
};
const PLANNED_SHIFT = "id workerId worker { name } roleId role { name } startTime endTime note";
const plannedShiftOf = (n: PlannedShiftNode) => ({
  id: n.id,
  workerId: n.workerId,
  workerName: n.worker?.name ?? null,
  roleId: n.roleId,
  roleName: n.role?.name ?? null,
  startTime: n.startTime,
  endTime: n.endTime,
  note: n.note,
});

const schedule = tool({
  name: "get_schedule",
  title: "Schedule of a location",
  description:
    "The published schedule entries of a location that start in a date range (the location's calendar days), by start; optionally one worker's. A worker sees their own.",
  operations: {
    scheduleEntries: `query scheduleEntries($locationId: ID!, $startDate: String, $endDate: String, $workerId: ID, $first: Int, $after: String) {
      scheduleEntries(locationId: $locationId, startDate: $startDate, endDate: $endDate, workerId: $workerId, first: $first, after: $after) { nodes { ${PLANNED_SHIFT} } ${PAGE_INFO} } }`,
  },
  offeredWith: "scheduleEntries",
  input: {
    locationId: id("The location"),
    startDate: date("First day"),
    endDate: date("Last day (inclusive)"),
    workerId: id("Only this worker's entries").optional(),
    ...page,
  },
  output: { entries: z.array(plannedShift), nextCursor },
  async run(operation, a) {
    const connection = await operation("scheduleEntries", {
      locationId: a.locationId,
      startDate: a.startDate,
      endDate: a.endDate,
      workerId: a.workerId,
      first: a.limit,
      after: a.cursor,
    });
    const { items, nextCursor } = pageOf(connection, plannedShiftOf);
    return { entries: items, nextCursor };
  },
});

const balances = tool({
  name: "get_time_off_balances",
  title: "Time-off balances",
  description:
    "Time-off balances in hours, per worker and policy; optionally one worker's. A worker sees their own (null where the organization hides balances).",
  operations: {
    workerPolicies: `query workerPolicies($workerId: ID, $first: Int, $after: String) {
      workerPolicies(workerId: $workerId, first: $first, after: $after) { nodes { id workerId worker { name } policyId name hoursBalance availableBalance } ${PAGE_INFO} } }`,
  },
  offeredWith: "workerPolicies",
  input: { workerId: id("Only this worker's balances").optional(), ...page },
  output: {
    balances: z.array(
      z.object({
        workerPolicyId: z.string(),
        workerId: z.string(),
        workerName: z.string().nullable(),
        policyId: z.string(),
        policyName: z.string(),
        hoursBalance: z.number().nullable().describe("Sum of the ledger, hours"),
        availableBalance: z.number().nullable().describe("What is left once pending requests are approved, hours"),
      }),
    ),
    nextCursor,
  },
  async run(operation, a) {
    const connection = await operation("workerPolicies", { workerId: a.workerId, first: a.limit, after: a.cursor });
    const { items, nextCursor } = pageOf(
      connection,
      (n: {
        id: string;
        workerId: string;
        worker: { name: string } | null;
        policyId: string;
        name: string;
        hoursBalance: number | null;
        availableBalance: number | null;
      }) => ({
        workerPolicyId: n.id,
        workerId: n.workerId,
        workerName: n.worker?.name ?? null,
        policyId: n.policyId,
        policyName: n.name,
        hoursBalance: n.hoursBalance,
        availableBalance: n.availableBalance,
      }),
    );
    return { balances: items, nextCursor };
  },
});

const REQUEST = "id status workerId worker { name } policyId policy { name } startTime endTime totalHours remainingBalance note";
const timeOffRequest = z.object({
  id: z.string(),
  status: z.string(),
  workerId: z.string(),
  workerName: z.string().nullable(),
  policyId: z.string(),
  policyName: z.string(),
  startTime: z.string().describe("UTC"),
  endTime: z.string(),
  totalHours: z.number(),
  remainingBalance: z.number().nullable().describe("The balance left once this and the worker's other pending requests on the policy are approved"),
  note: z.string().nullable(),
});
type RequestNode = {
  id: string;
  status: string;
  workerId: string;
  worker: { name: string } | null;
  policyId: string;
  policy: { name: string };
  startTime: string;
  endTime: string;
  totalHours: number;
  remainingBalance: number | null;
  note: string | null;
};
const requestOf = (n: RequestNode) => ({
  id: n.id,
  status: n.status,
  workerId: n.workerId,
  workerName: n.worker?.name ?? null,
  policyId: n.policyId,
  policyName: n.policy.name,
  startTime: n.startTime,
  endTime: n.endTime,
  totalHours: n.totalHours,
  remainingBalance: n.remainingBalance,
  note: n.note,
});

const pendingRequests = tool({
  name: "list_pending_time_off_requests",
  title: "Pending time-off requests",
  description: "Time-off requests waiting for a decision, with the balance each would leave; optionally one worker's. A worker sees their own.",
  operations: {
    timeOffRequests: `query timeOffRequests($workerId: ID, $first: Int, $after: String) {
      timeOffRequests(status: "pending", workerId: $workerId, first: $first, after: $after) { nodes { ${REQUEST} } ${PAGE_INFO} } }`,
  },
  offeredWith: "timeOffRequests",
  input: { workerId: id("Only this worker's requests").optional(), ...page },
  output: { requests: z.array(timeOffRequest), nextCursor },
  async run(operation, a) {
    const { items, nextCursor } = pageOf(await operation("timeOffRequests", { workerId: a.workerId, first: a.limit, after: a.cursor }), requestOf);
    return { requests: items, nextCursor };
  },
});

const ATTENDANCE_KINDS = ["LATE_IN", "EARLY_OUT", "NO_SHOW", "MISSED_CLOCK_OUT", "UNSCHEDULED_SHIFT", "CLOCK_RULE", "MISSED_BREAK", "LONG_SHIFT"] as const;

const attendanceException = z.object({
  id: z.string(),
  kind: z.enum(ATTENDANCE_KINDS),
  severity: z.string().describe("critical or warning"),
  staffId: z.string(),
  locationId: z.string(),
  date: z.string().describe("The local day of the shift or entry"),
  entryId: z.string().nullable(),
  shiftId: z.string().nullable(),
  minutes: z.number().nullable().describe("Minutes late, early, or beyond the long-shift limit"),
  message: z.string(),
  detectedAt: z.string(),
});

const attendanceExceptions = tool({
  name: "list_open_attendance_exceptions",
  title: "Open attendance exceptions",
  description:
    "Attendance exceptions still OPEN (late in, early out, no-show, missed clock-out, unscheduled shift, clock rule, missed break, long shift) on the days of a range; optionally one location's, one person's or one kind. Critical ones hold up timesheet approval. A worker sees their own.",
  operations: {
    attendanceExceptions: `query attendanceExceptions($startDate: String!, $endDate: String!, $locationId: ID, $staffId: ID, $kind: AttendanceExceptionKind, $first: Int, $after: String) {
      attendanceExceptions(status: OPEN, startDate: $startDate, endDate: $endDate, locationId: $locationId, staffId: $staffId, kind: $kind, first: $first, after: $after) {
        nodes { id kind severity staffId locationId date entryId shiftId minutes message detectedAt } ${PAGE_INFO} } }`,
  },
  offeredWith: "attendanceExceptions",
  input: {
    startDate: date("First day"),
    endDate: date("Last day (inclusive)"),
    locationId: id("Only this location's").optional(),
    staffId: id("Only this person's").optional(),
    kind: z.enum(ATTENDANCE_KINDS).optional(),
    ...page,
  },
  output: {
    exceptions: z.array(attendanceException),
    nextCursor,
  },
  async run(operation, a) {
    const connection = await operation("attendanceExceptions", {
      startDate: a.startDate,
      endDate: a.endDate,
      locationId: a.locationId,
      staffId: a.staffId,
      kind: a.kind,
      first: a.limit,
      after: a.cursor,
    });
    const { items, nextCursor } = pageOf(connection, (n: z.infer<typeof attendanceException>) => n);
    return { exceptions: items, nextCursor };
  },
});

const coverageGap = z.object({
  date: z.string(),
  templateId: z.string(),
  templateName: z.string().nullable(),
  required: z.number().int(),
  assigned: z.number().int().describe("Published entries and drafts of that template and day"),
  missing: z.number().int(),
});
type CoverageLine = { date: string; templateId: string; count: number; assigned: number; missing: number };
const COVERAGE =
  "query coverage($locationId: ID!, $startDate: String, $endDate: String) { coverage(locationId: $locationId, startDate: $startDate, endDate: $endDate) { date templateId count assigned missing } }";

const coverageGaps = tool({
  name: "get_coverage_gaps",
  title: "Coverage gaps",
  description:
    "Where a location's schedule falls short of its coverage requirements on the days of a range: each shift template and day still missing people (published entries and drafts counted), with the total missing. Days fully covered are left out.",
  operations: {
    coverage: COVERAGE,
    shiftTemplates: "query shiftTemplates($locationId: ID!) { shiftTemplates(locationId: $locationId, first: 1000) { nodes { id name } } }",
  },
  offeredWith: "coverage",
  input: { locationId: id("The location"), startDate: date("First day"), endDate: date("Last day (inclusive)"), ...page },
  output: { gaps: z.array(coverageGap), totalMissing: z.number().int(), nextCursor },
  async run(operation, a) {
    const lines: CoverageLine[] = await operation("coverage", { locationId: a.locationId, startDate: a.startDate, endDate: a.endDate });
    const names = new Map(
      ((await operation("shiftTemplates", { locationId: a.locationId })).nodes as { id: string; name: string }[]).map((t) => [t.id, t.name]),
    );
    const gaps = lines
      .filter((l) => l.missing > 0)
      .map((l) => ({
        date: l.date,
        templateId: l.templateId,
        templateName: names.get(l.templateId) ?? null,
        required: l.count,
        assigned: l.assigned,
        missing: l.missing,
      }));
    const { items, nextCursor } = slicePage(gaps, a.limit, a.cursor);
    return { gaps: items, totalMissing: gaps.reduce((sum, g) => sum + g.missing, 0), nextCursor };
  },
});

const finding = z.object({
  code: z.string().describe("INACTIVE, ROLE, LOCATION, UNAVAILABLE, TIME_OFF, OVERLAP, PREFER_OFF, or a compliance rule"),
  message: z.string(),
});

const eligibleStaff = tool({
  name: "check_eligibility",
  title: "Who is eligible for a shift, and why not",
  description:
    "For a shift at a location (role, start and end), every active staff member (or those named): eligible or not, the reasons that rule a person out (role, location, availability, time off, overlaps, compliance rules), the warnings that do not, and the premiums the shift would cost. Eligible people first.",
  operations: {
    eligibility: `query eligibility($input: EligibilityInput!) {
      eligibility(input: $input) { staffId eligible reasons { code message } warnings { code message } premiums { ruleId hours amount } } }`,
  },
  offeredWith: "eligibility",
  input: {
    locationId: id("The location"),
    roleId: id("The role worked"),
    startTime: z.string().max(40).describe("Start: local wall time of the location (2026-03-02T09:00) or with an offset"),
    endTime: z.string().max(40).describe("End, as startTime"),
    staffIds: z.array(id("A staff member")).max(200).optional().describe("Only these people (default every active one)"),
    templateId: id("The shift's template: preferences naming it apply").optional(),
    ...page,
  },
  output: {
    staff: z.array(
      z.object({
        staffId: z.string(),
        eligible: z.boolean(),
        reasons: z.array(finding),
        warnings: z.array(finding),
        premiums: z.array(z.object({ ruleId: z.string(), hours: z.number(), amount: z.number() })),
      }),
    ),
    eligibleCount: z.number().int(),
    nextCursor,
  },
  async run(operation, a) {
    const input = { locationId: a.locationId, roleId: a.roleId, startTime: a.startTime, endTime: a.endTime, staffIds: a.staffIds, templateId: a.templateId };
    const all: {
      staffId: string;
      eligible: boolean;
      reasons: { code: string; message: string }[];
      warnings: { code: string; message: string }[];
      premiums: { ruleId: string; hours: number; amount: number }[];
    }[] = await operation("eligibility", { input: Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) });
    const ordered = [...all.filter((s) => s.eligible), ...all.filter((s) => !s.eligible)];
    const { items, nextCursor } = slicePage(ordered, a.limit, a.cursor);
    return { staff: items, eligibleCount: all.filter((s) => s.eligible).length, nextCursor };
  },
});

const generate = tool({
  name: "generate_schedule",
  title: "Generate a schedule",
  description:
    "Starts generating draft entries for a location's days to meet its coverage requirements, within availability, time off, compliance rules and limits (never publishes; it runs in the background and its id can be read back). FILL keeps the range's drafts and adds; REPLACE_DRAFTS replaces them. With dryRun (the default) it answers the coverage it would fill and the drafts it would replace, changing nothing.",
  operations: {
    generateSchedule: `mutation generateSchedule($locationId: ID!, $input: GenerateScheduleInput!) {
      generateSchedule(locationId: $locationId, input: $input) { id status mode startDate endDate timeLimitSeconds } }`,
    coverage: COVERAGE,
    scheduleDrafts: `query scheduleDrafts($locationId: ID!, $startDate: String, $endDate: String) {
      scheduleDrafts(locationId: $locationId, startDate: $startDate, endDate: $endDate, first: 1000) { nodes { id } pageInfo { hasNextPage } } }`,
  },
  offeredWith: "generateSchedule",
  writes: { destructive: true, idempotent: false },
  input: {
    locationId: id("The location"),
    startDate: date("First day to fill"),
    endDate: date("Last day (inclusive)"),
    mode: z.enum(["FILL", "REPLACE_DRAFTS"]).default("FILL"),
    timeLimitSeconds: z.number().int().min(1).max(600).optional().describe("How long the search may run (default 30)"),
    dryRun,
  },
  output: {
    dryRun: z.boolean(),
    generation: z
      .object({
        id: z.string(),
        status: z.enum(["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]),
        mode: z.string(),
        startDate: z.string(),
        endDate: z.string(),
        timeLimitSeconds: z.number().int(),
      })
      .nullable()
      .describe("The generation started (null on a dry run)"),
    missingBefore: z.number().int().describe("People the coverage requirements of the range still miss"),
    draftsReplaced: z.number().int().describe("Drafts of the range REPLACE_DRAFTS would replace (0 for FILL)"),
  },
  async run(operation, a) {
    const input = {
      startDate: a.startDate,
      endDate: a.endDate,
      mode: a.mode,
      ...(a.timeLimitSeconds !== undefined ? { timeLimitSeconds: a.timeLimitSeconds } : {}),
    };
    const variables = { locationId: a.locationId, input };
    if (a.dryRun) await operation.check("generateSchedule", variables);
    const lines: CoverageLine[] = await operation("coverage", { locationId: a.locationId, startDate: a.startDate, endDate: a.endDate });
    const drafts =
      a.mode === "REPLACE_DRAFTS"
        ? (await operation("scheduleDrafts", { locationId: a.locationId, startDate: a.startDate, endDate: a.endDate })).nodes.length
        : 0;
    const missingBefore = lines.reduce((sum, l) => sum + l.missing, 0);
    if (a.dryRun) return { dryRun: true, generation: null, missingBefore, draftsReplaced: drafts };
    return { dryRun: false, generation: await operation("generateSchedule", variables), missingBefore, draftsReplaced: drafts };
  },
});

const createDraft = tool({
  name: "create_schedule_draft",
  title: "Create a draft schedule entry",
  description:
    "Plans a shift for a worker as a draft of the location's schedule (published later with the schedule; never published here). With dryRun (the default) it checks the location, worker, role and times and answers the draft it would create and the worker's entries and drafts it would overlap, changing nothing.",
  operations: {
    createScheduleDraft: `mutation createScheduleDraft($locationId: ID!, $input: CreateScheduleDraftInput!) {
      createScheduleDraft(locationId: $locationId, input: $input) { ${PLANNED_SHIFT} } }`,
    location: "query location($id: ID!) { location(id: $id) { id name timezone } }",
    staffMember: "query staffMember($id: ID!) { staffMember(id: $id) { id name } }",
    role: "query role($id: ID!) { role(id: $id) { id name } }",
    scheduleEntries: `query scheduleEntries($locationId: ID!, $startDate: String, $endDate: String, $workerId: ID) {
      scheduleEntries(locationId: $locationId, startDate: $startDate, endDate: $endDate, workerId: $workerId, first: 100) { nodes { id utcStartTime utcEndTime } } }`,
    scheduleDrafts: `query scheduleDrafts($locationId: ID!, $startDate: String, $endDate: String, $workerId: ID) {
      scheduleDrafts(locationId: $locationId, startDate: $startDate, endDate: $endDate, workerId: $workerId, first: 100) { nodes { id utcStartTime utcEndTime } } }`,
  },
  offeredWith: "createScheduleDraft",
  writes: { destructive: false, idempotent: false },
  input: {
    locationId: id("The location"),
    workerId: id("Who works it"),
    roleId: id("The role worked"),
    startTime: z.string().max(40).describe("Start: local wall time of the location (2026-03-02T09:00) or with an offset"),
    endTime: z.string().max(40).describe("End, as startTime"),
    note: z.string().max(2000).optional(),
    dryRun,
  },
  output: {
    dryRun: z.boolean(),
    draft: plannedShift.describe("The draft created, or the one that would be (its id empty)"),
    overlaps: z.array(z.string()).describe("Ids of the worker's entries and drafts the draft overlaps (the service refuses a double booking at publication)"),
  },
  async run(operation, a) {
    const input = { workerId: a.workerId, roleId: a.roleId, startTime: a.startTime, endTime: a.endTime, ...(a.note !== undefined ? { note: a.note } : {}) };
    const location = await operation("location", { id: a.locationId });
    const start = parseTimestamp(a.startTime, location.timezone, "startTime");
    const end = parseTimestamp(a.endTime, location.timezone, "endTime");
    if (end <= start) throw invalidField("endTime", "endTime must be after startTime");
    // Entries are listed by the day they start: one that started the day before may still overlap.
    const days = {
      locationId: a.locationId,
      workerId: a.workerId,
      startDate: addDays(localDate(start, location.timezone), -1),
      endDate: localDate(end, location.timezone),
    };
    const nearby = [...(await operation("scheduleEntries", days)).nodes, ...(await operation("scheduleDrafts", days)).nodes] as {
      id: string;
      utcStartTime: string;
      utcEndTime: string;
    }[];
    const overlaps = nearby.filter((n) => new Date(n.utcStartTime) < end && new Date(n.utcEndTime) > start).map((n) => n.id);
    const variables = { locationId: a.locationId, input };
    if (!a.dryRun) return { dryRun: false, draft: plannedShiftOf(await operation("createScheduleDraft", variables)), overlaps };
    await operation.check("createScheduleDraft", variables);
    const [worker, role] = [await operation("staffMember", { id: a.workerId }), await operation("role", { id: a.roleId })];
    const zone = location.timezone;
    return {
      dryRun: true,
      draft: {
        id: "",
        workerId: worker.id,
        workerName: worker.name,
        roleId: role.id,
        roleName: role.name,
        startTime: formatLocal(start, zone),
        endTime: formatLocal(end, zone),
        note: a.note ?? null,
      },
      overlaps,
    };
  },
});

/** Approving and declining: the same shape, one mutation each. */
function decideTimeOff(decision: "approve" | "decline"): McpTool {
  const mutation = decision === "approve" ? "approveTimeOffRequest" : "declineTimeOffRequest";
  return tool({
    name: `${decision}_time_off_request`,
    title: decision === "approve" ? "Approve a time-off request" : "Decline a time-off request",
    description:
      decision === "approve"
        ? "Approves a pending time-off request (its hours leave the worker's balance). With dryRun (the default) it answers the request as it is and the balance it would leave, changing nothing."
        : "Declines a pending time-off request, with an optional reason the worker sees. With dryRun (the default) it answers the request as it is, changing nothing.",
    operations: {
      [mutation]:
        decision === "approve"
          ? `mutation approveTimeOffRequest($id: ID!) { approveTimeOffRequest(id: $id) { ${REQUEST} } }`
          : `mutation declineTimeOffRequest($id: ID!, $input: DeclineTimeOffRequestInput) { declineTimeOffRequest(id: $id, input: $input) { ${REQUEST} } }`,
      timeOffRequest: `query timeOffRequest($id: ID!) { timeOffRequest(id: $id) { ${REQUEST} } }`,
    },
    offeredWith: mutation,
    writes: { destructive: decision === "decline", idempotent: false },
    input: {
      requestId: id("The time-off request"),
      ...(decision === "decline" ? { reason: z.string().max(2000).optional().describe("Told to the worker") } : {}),
      dryRun,
    },
    output: {
      dryRun: z.boolean(),
      request: timeOffRequest.describe("The request after the decision, or as it is now on a dry run"),
      wouldBecome: z.string().nullable().describe("On a dry run, the status the request would get; null when it cannot be decided (it is not pending)"),
    },
    async run(operation, a: { requestId: string; reason?: string; dryRun: boolean }) {
      const variables = decision === "approve" ? { id: a.requestId } : { id: a.requestId, input: { reason: a.reason ?? null } };
      if (!a.dryRun) return { dryRun: false, request: requestOf(await operation(mutation, variables)), wouldBecome: null };
      await operation.check(mutation, variables);
      const request = requestOf(await operation("timeOffRequest", { id: a.requestId }));
      return { dryRun: true, request, wouldBecome: request.status === "pending" ? (decision === "approve" ? "approved" : "declined") : null };
    },
  });
}

const SHIFT_REQUEST =
  "id type status requesterStaffId recipientStaffId entryId recipientEntryId locationId note preview { people { staffId entryId eligible reasons { code message } warnings { code message } premiums { ruleId hours amount } } }";
const shiftRequest = z.object({
  id: z.string(),
  type: z.string().describe("SWAP, COVER or DROP"),
  status: z.string(),
  requesterStaffId: z.string(),
  recipientStaffId: z.string().nullable(),
  entryId: z.string(),
  recipientEntryId: z.string().nullable(),
  locationId: z.string(),
  note: z.string().nullable(),
  people: z
    .array(
      z.object({
        staffId: z.string(),
        entryId: z.string(),
        eligible: z.boolean(),
        reasons: z.array(finding),
        warnings: z.array(finding),
        premiums: z.array(z.object({ ruleId: z.string(), hours: z.number(), amount: z.number() })),
      }),
    )
    .describe("Per person affected: eligibility, compliance and premiums of the change, worked out now"),
});
type ShiftRequestNode = Omit<z.infer<typeof shiftRequest>, "people"> & { preview: { people: z.infer<typeof shiftRequest>["people"] } };
const shiftRequestOf = ({ preview, ...rest }: ShiftRequestNode) => ({ ...rest, people: preview.people });

const approveShiftRequest = tool({
  name: "approve_shift_request",
  title: "Approve a shift request",
  description:
    "Approves a swap, cover or drop waiting for a manager (PENDING_APPROVAL): the entries change hands (a drop becomes an open shift), everything re-checked at that moment. Compliance errors block it unless acknowledged with a reason. With dryRun (the default) it answers the request with its preview (who is eligible, what it breaks, what it costs), changing nothing.",
  operations: {
    approveShiftRequest: `mutation approveShiftRequest($id: ID!, $input: ApproveShiftRequestInput) { approveShiftRequest(id: $id, input: $input) { ${SHIFT_REQUEST} } }`,
    shiftRequest: `query shiftRequest($id: ID!) { shiftRequest(id: $id) { ${SHIFT_REQUEST} } }`,
  },
  offeredWith: "approveShiftRequest",
  writes: { destructive: false, idempotent: false },
  input: {
    requestId: id("The shift request"),
    acknowledge: z.boolean().optional().describe("Approve despite compliance errors (needs reason)"),
    reason: z.string().max(2000).optional(),
    dryRun,
  },
  output: {
    dryRun: z.boolean(),
    request: shiftRequest,
    wouldBecome: z.string().nullable().describe("On a dry run: APPROVED when it is waiting for approval, else null"),
  },
  async run(operation, a) {
    const input = a.acknowledge !== undefined || a.reason !== undefined ? { acknowledge: a.acknowledge, reason: a.reason } : undefined;
    const variables = { id: a.requestId, input };
    if (!a.dryRun) return { dryRun: false, request: shiftRequestOf(await operation("approveShiftRequest", variables)), wouldBecome: null };
    await operation.check("approveShiftRequest", variables);
    const request = shiftRequestOf(await operation("shiftRequest", { id: a.requestId }));
    return { dryRun: true, request, wouldBecome: request.status === "PENDING_APPROVAL" ? "APPROVED" : null };
  },
});

/** Every tool, in the order a client lists them. */
export const MCP_TOOLS: McpTool[] = [
  schedule,
  balances,
  pendingRequests,
  attendanceExceptions,
  coverageGaps,
  eligibleStaff,
  createDraft,
  generate,
  decideTimeOff("approve"),
  decideTimeOff("decline"),
  approveShiftRequest,
];
