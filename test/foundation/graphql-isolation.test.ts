import { randomUUID } from "node:crypto";
import { GraphQLField } from "graphql";
import { carriesId, idsTakenBy, operationCalling, OperationKind, rootFields } from "../support/graphql-arguments";
import { TestOrganization, TestService } from "../support/harness";
import { organizationData, recordIdFor, victimRecords } from "../support/records";

type Records = Record<string, string>;
type Api = ReturnType<TestService["as"]>;
type Answer = Awaited<ReturnType<TestService["gql"]>>;

/** Every object in a GraphQL answer, nested ones included. */
function objectsIn(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  if (value && typeof value === "object") return [value as Record<string, unknown>, ...Object.values(value).flatMap(objectsIn)];
  return [];
}

/**
 * What an operation needs beyond one record of each kind to succeed with the caller's own records:
 * `prepare` builds that state (and may name other records in `own`), `adjust` fills in a value the
 * generated call cannot guess.
 */
interface Setup {
  /** `asStaff` calls REST as one staff member (a worker) instead of the organization. */
  prepare?: (api: Api, base: string, own: Records, org: TestOrganization, asStaff: (staffId: string) => Promise<Api>) => Promise<void>;
  adjust?: (operation: string, own: Records, org: TestOrganization) => string;
}

/** Names are unique within an organization: each prepared record gets its own. */
let made = 0;
const unique = (name: string) => `${name} ${++made}`;

async function created(res: { status: number; body: { id?: string } }, what: string): Promise<string> {
  if (res.status !== 201 || !res.body.id) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** A staff member with nothing booked yet, at the records' location and role. */
const freshStaff = async (api: Api, base: string, own: Records) => {
  own.staff = await created(await api.post(`${base}/staff`, { name: unique("Own spare staff"), roleIds: [own.role], locationIds: [own.location] }), "staff");
};
/** The records' open shift, published, so that workers may claim it and managers assign it. */
const publishedOpenShift = async (api: Api, base: string, own: Records) => {
  const res = await api.post(`${base}/locations/${own.location}/schedules/publish`, { startDate: "2026-03-12", endDate: "2026-03-12" });
  if (res.status !== 200) throw new Error(`publish: ${res.status} ${JSON.stringify(res.body)}`);
};
/** A fresh staff member clocked in an hour before now (the test clock's noon) at the records' location. */
const clockedIn = async (api: Api, base: string, own: Records) => {
  await freshStaff(api, base, own);
  const res = await api.post("/api/time-tracking/clock-in", { workerId: own.staff, locationId: own.location, roleId: own.role, time: "2026-03-02T11:00:00Z" });
  if (res.status !== 201) throw new Error(`clock-in: ${res.status} ${JSON.stringify(res.body)}`);
};

async function ok(res: { status: number; body: unknown }, what: string): Promise<void> {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The records' staff member's rule waiting for approval: written by the worker, where rules need approval. */
const pendingAvailabilityRule = async (api: Api, base: string, own: Records, _org: TestOrganization, asStaff: (staffId: string) => Promise<Api>) => {
  await ok(await api.patch(`${base}/availability-settings`, { availabilityRequiresApproval: true }), "availability settings");
  const worker = await asStaff(own.staff);
  own.availabilityRule = await created(await worker.post(`${base}/staff/${own.staff}/availability`, { kind: "PREFER_ON", weekdays: ["TUE"] }), "pending rule");
};
/** A one-day rule for a shift template: only preferences may name one. */
const availabilityForTemplate = (operation: string) =>
  operation.replace("{ kind: UNAVAILABLE, templateId:", '{ kind: PREFER_ON, date: "2026-03-02", templateId:');
/** A shift planned from a template is for a day. */
const planFromTemplate = (operation: string) => operation.replace(", templateId:", ', date: "2026-03-09", templateId:');
/** Reports over the pay period the records' shift falls in. */
const overPayPeriod = (operation: string) => operation.replace("(locationId:", '(payPeriod: "2026-03-02", locationId:');

/** A published entry of `staffId` on `day` (10:00 to 14:00) at the records' location. */
const publishedEntry = async (api: Api, base: string, own: Records, staffId: string, day: string): Promise<string> => {
  const schedules = `${base}/locations/${own.location}/schedules`;
  await created(
    await api.post(`${schedules}/drafts`, { workerId: staffId, roleId: own.role, startTime: `${day}T10:00:00Z`, endTime: `${day}T14:00:00Z` }),
    "draft",
  );
  await ok(await api.post(`${schedules}/publish`, { startDate: day, endDate: day }), "publish");
  return (await api.get(`${schedules}?startDate=${day}&endDate=${day}`)).body.find((e: { workerId: string }) => e.workerId === staffId).id;
};
/** A second staff member with a published entry of their own: who a request goes to. */
const recipient = async (api: Api, base: string, own: Records) => {
  own.recipientStaff = await created(
    await api.post(`${base}/staff`, { name: unique("Own recipient"), roleIds: [own.role], locationIds: [own.location] }),
    "recipient",
  );
  own.recipientEntry = await publishedEntry(api, base, own, own.recipientStaff, "2026-03-14");
};
/** A cover of a fresh entry of the records' staff member offered to one worker: theirs (or a manager's) to accept or decline. */
const offeredShiftRequest = async (api: Api, base: string, own: Records) => {
  await recipient(api, base, own);
  const entryId = await publishedEntry(api, base, own, own.staff, "2026-03-13");
  own.shiftRequest = await created(await api.post(`${base}/shift-requests`, { type: "COVER", entryId, recipientStaffId: own.recipientStaff }), "cover request");
};
/** A drop of a fresh entry of the records' staff member, waiting for a manager where requests need approval. */
const pendingShiftRequest = async (api: Api, base: string, own: Records) => {
  await ok(await api.patch(`${base}/locations/${own.location}/shift-request-settings`, { shiftRequestsRequireApproval: true }), "shift request settings");
  const entryId = await publishedEntry(api, base, own, own.staff, "2026-03-13");
  own.shiftRequest = await created(await api.post(`${base}/shift-requests`, { type: "DROP", entryId }), "drop request");
};

const SETUPS: Record<string, Setup> = {
  // Built-in access roles cannot be changed: a custom one.
  updateAccessRole: {
    prepare: async (api, base, own) =>
      void (own.accessRole = await created(
        await api.post(`${base}/access-roles`, { name: unique("Own custom role"), permissions: ["schedules:read"] }),
        "access role",
      )),
  },
  deleteAccessRole: {
    prepare: async (api, base, own) =>
      void (own.accessRole = await created(
        await api.post(`${base}/access-roles`, { name: unique("Own custom role"), permissions: ["schedules:read"] }),
        "access role",
      )),
  },
  exchangeToken: { adjust: (operation, _own, org) => operation.replace('apiKey: "Filled in"', `apiKey: ${JSON.stringify(org.apiKey)}`) },
  // Only an enabled endpoint recovers its events.
  recoverWebhookEndpoint: {
    prepare: async (api, base, own) => ok(await api.patch(`${base}/webhook-endpoints/${own.webhookEndpoint}`, { enabled: true }), "enable endpoint"),
    adjust: (operation) => operation.replace('since: "Filled in"', 'since: "2026-03-01T00:00:00Z"'),
  },
  // Records in use cannot be deleted: unused ones.
  deleteLocation: {
    prepare: async (api, base, own) =>
      void (own.location = await created(await api.post(`${base}/locations`, { name: unique("Own spare location"), timezone: "UTC" }), "location")),
  },
  deleteRole: {
    prepare: async (api, base, own) =>
      void (own.role = await created(await api.post(`${base}/roles`, { name: unique("Own spare role"), hourlyWage: 20 }), "role")),
  },
  claimOpenShift: {
    prepare: async (api, base, own) => {
      await publishedOpenShift(api, base, own);
      await freshStaff(api, base, own);
    },
  },
  assignOpenShiftPreference: { prepare: publishedOpenShift },
  bulkAssignOpenShiftPreferences: { prepare: publishedOpenShift },
  // The records' staff member already has a preference on the open shift.
  createOpenShiftPreference: { prepare: freshStaff },
  // The records' shift covers the clock's now.
  clockIn: { prepare: freshStaff },
  createShift: { prepare: freshStaff },
  clockOut: { prepare: clockedIn },
  startBreak: { prepare: clockedIn },
  endBreak: {
    prepare: async (api, base, own) => {
      await clockedIn(api, base, own);
      const res = await api.post("/api/time-tracking/breaks/start", { workerId: own.staff, typeId: own.breakType, time: "2026-03-02T11:30:00Z" });
      if (res.status !== 200) throw new Error(`break start: ${res.status} ${JSON.stringify(res.body)}`);
    },
  },
  // A break of a closed shift ends.
  updateShift: {
    adjust: (operation) =>
      operation.replace('breaks: [{ startTime: "2026-03-02T09:00:00Z",', 'breaks: [{ startTime: "2026-03-02T12:00:00Z", endTime: "2026-03-02T12:30:00Z",'),
  },
  // Templates run by the local time of day.
  createShiftTemplate: {
    adjust: (operation) => operation.replace('startTime: "2026-03-02T09:00:00Z", endTime: "2026-03-02T17:00:00Z"', 'startTime: "09:00", endTime: "17:00"'),
  },
  createScheduleEntry: { adjust: planFromTemplate },
  createScheduleDraft: { adjust: planFromTemplate },
  createAvailabilityRule: { adjust: availabilityForTemplate },
  // A manager's rules are approved at once: a worker's, waiting.
  approveAvailabilityRule: { prepare: pendingAvailabilityRule },
  declineAvailabilityRule: { prepare: pendingAvailabilityRule },
  // OPEN is where an exception starts, not where a manager takes it.
  resolveAttendanceException: { adjust: (operation) => operation.replace("status: OPEN", "status: EXCUSED") },
  employeeShiftReports: { adjust: overPayPeriod },
  shiftReport: { adjust: overPayPeriod },
  revokeLocationCalendarFeed: { prepare: async (api, base, own) => ok(await api.post(`${base}/locations/${own.location}/calendar-feed`), "location feed") },
  // Only a submitted (or approved) timesheet reopens.
  reopenTimesheet: {
    prepare: async (api, base, own) => ok(await api.post(`${base}/pay-periods/2026-03-02/timesheets/${own.staff}/submit`), "submit timesheet"),
  },
  // A swap goes to another worker's entry; a cover offered to a worker is accepted (by a manager for them).
  createShiftRequest: {
    // The records' entry has a request waiting already: a fresh one.
    prepare: async (api, base, own) => {
      await recipient(api, base, own);
      own.entry = await publishedEntry(api, base, own, own.staff, "2026-03-13");
    },
    adjust: (operation, own) =>
      operation
        .replace(`recipientStaffId: "${own.staff}"`, `recipientStaffId: "${own.recipientStaff}"`)
        .replace(`recipientEntryId: "${own.entry}"`, `recipientEntryId: "${own.recipientEntry}"`),
  },
  acceptShiftRequest: { prepare: offeredShiftRequest },
  declineShiftRequest: { prepare: offeredShiftRequest },
  approveShiftRequest: { prepare: pendingShiftRequest },
  // A policy that requests use cannot be removed: an unused one.
  deleteTimeOffPolicy: {
    prepare: async (api, base, own) =>
      void (own.policy = await created(
        await api.post(`${base}/policies`, { name: unique("Own unused policy"), typeId: own.policyType, defaultSettings: { assignedStaff: { type: "All" } } }),
        "policy",
      )),
  },
  // Only a Draft (or Inactive) policy can be activated.
  activateTimeOffPolicy: {
    prepare: async (api, base, own) =>
      void (own.policy = await created(
        await api.post(`${base}/policies`, { name: unique("Own draft policy"), typeId: own.policyType, defaultSettings: { assignedStaff: { type: "All" } } }),
        "policy",
      )),
  },
};

/**
 * Operations that no call with the caller's own records can make succeed, and why; each is still
 * called with the victim's ids below.
 */
const CANNOT_SUCCEED: Record<string, string> = {};

/**
 * Input fields that only repeat the id of the record the operation acts on, so that any other id,
 * the victim's as much as one that exists nowhere, is a mismatch (400 naming the field), not a
 * reference to look up.
 */
const REPEATS_OWN_ID: Record<string, string> = { updateTimeOffRequest: "id" };

/**
 * Over three hundred calls on fresh records: on a busy shared machine more than the suite's five
 * minutes. The limit only ends a hang.
 */
const SWEEP_TIMEOUT = 30 * 60_000;

/** A single-line view of an answer for failure messages. */
const shown = (value: unknown) => JSON.stringify(value ?? null).slice(0, 300);

/**
 * Every GraphQL query and mutation that takes an id anywhere in its arguments (nested inputs
 * included), called by another organization with its own fresh records, in whatever state the call
 * needs (a custom access role, a published open shift, a worker clocked in, a Draft policy, a
 * record not in use). Each id in turn, and all at once, is the victim's record of that kind, the
 * rest the caller's own: the answer is exactly the answer to an id that exists nowhere (NOT_FOUND
 * for the record the operation acts on and for a reference in its input, which names the field;
 * the same empty list for a filter), one error and no data, and nothing of the victim's changes. Then the same call with the caller's own records succeeds, so each refusal was the
 * tenant check's and not a call that fails for everyone. Generated from the schema, so a new
 * operation is covered the day it is added.
 */
describe("tenant isolation across the GraphQL schema", () => {
  let t: TestService;
  let victim: TestOrganization;
  let ids: Records;
  const all = rootFields().filter(([, field]) => field.args.some((a) => carriesId(a.type)));
  // The mutation check sweeps only the operations a broken rule concerns (ISOLATION_OPERATIONS=a,b).
  const only = process.env.ISOLATION_OPERATIONS?.split(",");
  const candidates = only ? all.filter(([, field]) => only.includes(field.name)) : all;

  beforeAll(async () => {
    t = await TestService.start();
    victim = await t.organization("Victim");
    ids = await victimRecords(t, victim);
  });
  afterAll(() => t.stop());

  /** The organization every query with no state to prepare is asked from: queries change nothing. */
  let reader: Promise<{ intruder: TestOrganization; own: Records }> | undefined;

  /**
   * An organization of the caller's with its own records, fresh, in the state `field` needs. One
   * organization per mutation keeps each small (a policy for every staff member, lists to read) and
   * untouched by the others; the queries with no state to prepare share one.
   */
  async function intruderFor(kind: OperationKind, field: GraphQLField<unknown, unknown>): Promise<{ intruder: TestOrganization; own: Records }> {
    const prepare = SETUPS[field.name]?.prepare;
    if (kind === "query" && !prepare) return (reader ??= organizationWithRecords("Intruder reading"));
    return organizationWithRecords(`Intruder ${field.name}`, prepare);
  }

  async function organizationWithRecords(name: string, prepare?: Setup["prepare"]): Promise<{ intruder: TestOrganization; own: Records }> {
    const intruder = await t.organization(name);
    const own = await victimRecords(t, intruder, "Own");
    await prepare?.(t.as(intruder.token), `/api/organizations/${intruder.id}`, own, intruder, async (staffId) => t.as(await t.token(intruder.apiKey, staffId)));
    return { intruder, own };
  }

  /** The call of `field` with the ids at the `foreign` places (in the order ids go in) taken from `others`, the rest from `own`. */
  function call(
    kind: OperationKind,
    field: GraphQLField<unknown, unknown>,
    intruder: TestOrganization,
    own: Records,
    foreign: (place: number) => boolean,
    others: Records,
  ): string {
    let place = 0;
    const operation = operationCalling(kind, field, (name) => recordIdFor(field, name, foreign(place++) ? others : own));
    return SETUPS[field.name]?.adjust?.(operation, own, intruder) ?? operation;
  }

  /** What is wrong with an answer to the caller's own records: any error, or a refused item. */
  function ownFailure(field: string, res: Answer): string | undefined {
    if (res.errors?.length) return `errors ${shown(res.errors)}`;
    if (res.data?.[field] == null) return `no answer ${shown(res.data)}`;
    const refusedItem = objectsIn(res.data).find((o) => (o.error as { code?: string } | null)?.code);
    return refusedItem ? `refused an item ${shown(refusedItem)}` : undefined;
  }

  /** An answer with every id that is not the caller's (the victim's, or one that exists nowhere) written alike. */
  function normalized(res: Answer, others: string[]): string {
    let text = JSON.stringify({
      data: res.data ?? null,
      errors: (res.errors ?? []).map((e) => ({ message: e.message, path: e.path, code: e.extensions.code, details: e.extensions.details })),
    });
    for (const id of others) text = text.split(id).join("<other>");
    return text;
  }

  /**
   * What is wrong with the answer to a call naming a victim's record: a leak, more than one error,
   * data beside the error, or any difference from the answer to an id that exists nowhere (the
   * rule: another organization's id answers exactly like one that does not exist). The operation's
   * own record and a reference inside its input answer NOT_FOUND (the reference naming its field), an
   * input field that repeats the operation's own id VALIDATION_FAILED (REPEATS_OWN_ID); a list
   * filtered by it the same empty list.
   */
  function intrusion(field: string, res: Answer, unknown: Answer, unknownId: string): string | undefined {
    const victims = new Set(Object.values(ids));
    if (objectsIn(res.data).some((o) => victims.has(o.id as string) || o.organizationId === victim.id) || /Secret/.test(JSON.stringify(res.data ?? {})))
      return `leaked ${shown(res.data)}`;
    if (res.errors && (res.errors.length !== 1 || res.data?.[field] != null)) return `answered ${shown(res)}`;
    const error = res.errors?.[0].extensions;
    const repeated = error?.code === "VALIDATION_FAILED" && (error.details as { field: string }[] | undefined)?.[0]?.field === REPEATS_OWN_ID[field];
    if (error && error.code !== "NOT_FOUND" && !repeated) return `answered ${shown(res)}`;
    const others = [...victims, unknownId];
    if (normalized(res, others) !== normalized(unknown, others))
      return `answered ${shown(normalized(res, others))}\n  where an id that exists nowhere answers ${shown(normalized(unknown, others))}`;
    return undefined;
  }

  it("covers every operation that takes an id, inside input objects too", () => {
    // 71 operations take an id as an argument of their own (many of them an input object besides);
    // 12 more only inside an input object (clockIn, createShift, createStaffMember, lockDay, …).
    expect(all.length).toBeGreaterThanOrEqual(83);
    expect(all.map(([, f]) => f.name)).toEqual(expect.arrayContaining(["createShift", "clockIn", "createStaffMember", "lockDay", "createBreakType"]));
  });

  it(
    "answers another organization's ids exactly like ids that exist nowhere, changes nothing, and succeeds with the caller's own",
    async () => {
      const before = await organizationData(t, [victim.id]);
      const failures: string[] = [];
      let foreignCalls = 0;
      const answers = new Map<string, number>();
      for (const [kind, field] of candidates) {
        const { intruder, own } = await intruderFor(kind, field);
        const places = idsTakenBy(kind, field);
        const variants: [string, (place: number) => boolean][] = Array.from({ length: places }, (_, at) => [`at place ${at}`, (place: number) => place === at]);
        if (places > 1) variants.push(["everywhere", () => true]);
        for (const [where, foreign] of variants) {
          const nowhere = randomUUID();
          const unknown = await t.gql(intruder.token, call(kind, field, intruder, own, foreign, Object.fromEntries(Object.keys(ids).map((k) => [k, nowhere]))));
          const foreignOperation = call(kind, field, intruder, own, foreign, ids);
          const res = await t.gql(intruder.token, foreignOperation);
          const refused = intrusion(field.name, res, unknown, nowhere);
          if (refused) failures.push(`${kind} ${field.name} with the victim's id ${where}: ${refused}\n  ${foreignOperation}`);
          const answer = res.errors?.[0].extensions.code ?? "an empty list";
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
          foreignCalls++;
        }

        // The refusals changed nothing, so the same records still serve the call that must succeed:
        // the refusals above were the tenant check's, not a state that fails for everyone.
        const operation = call(kind, field, intruder, own, () => false, own);
        const wrong = ownFailure(field.name, await t.gql(intruder.token, operation));
        if (wrong && !CANNOT_SUCCEED[field.name]) failures.push(`${kind} ${field.name} with the caller's own records: ${wrong}\n  ${operation}`);
        if (!wrong && CANNOT_SUCCEED[field.name]) failures.push(`${kind} ${field.name} succeeds now: take it off CANNOT_SUCCEED`);
      }
      console.log(
        `GraphQL isolation: ${candidates.length} operations succeeded with the caller's own records; ${foreignCalls} calls with another organization's ids answered ${JSON.stringify(Object.fromEntries(answers))}`,
      );
      expect(failures).toEqual([]);
      expect(foreignCalls).toBeGreaterThanOrEqual(only ? only.length : 160);
      expect(await organizationData(t, [victim.id])).toEqual(before);
    },
    SWEEP_TIMEOUT,
  );
});
