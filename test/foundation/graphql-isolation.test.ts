import { carriesId, idsTakenBy, operationCalling, rootFields } from "../support/graphql-arguments";
import { TestOrganization, TestService } from "../support/harness";
import { recordIdFor, victimRecords } from "../support/records";

/** Every object in a GraphQL answer, nested ones included. */
function objectsIn(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  if (value && typeof value === "object") return [value as Record<string, unknown>, ...Object.values(value).flatMap(objectsIn)];
  return [];
}

/**
 * Every GraphQL query and mutation that takes an id anywhere in its arguments (nested inputs
 * included), called with a token of another organization: no data of the victim's, mutations
 * refused, nothing of the victim's changed. Generated from the schema, so a new operation is
 * covered the day it is added.
 */
describe("tenant isolation across the GraphQL schema", () => {
  let t: TestService;
  let victim: TestOrganization;
  let intruder: TestOrganization;
  let ids: Record<string, string>;
  let intruderIds: Record<string, string>;
  const candidates = rootFields().filter(([, field]) => field.args.some((a) => carriesId(a.type, a.name)));

  beforeAll(async () => {
    t = await TestService.start();
    victim = await t.organization("Victim");
    ids = await victimRecords(t, victim);
    intruder = await t.organization("Intruder");
    intruderIds = await victimRecords(t, intruder, "Intruder's");
  });
  afterAll(() => t.stop());

  const victimChanges = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [victim.id]))[0].n);

  /** What is wrong with the intruder's answer, if anything. */
  async function intrusion(kind: string, operation: string): Promise<string | undefined> {
    const res = await t.gql(intruder.token, operation);
    // An error without a path refused the document itself: the call never reached the resolver.
    if (res.errors?.some((e) => !e.path || e.extensions.code === "INTERNAL_SERVER_ERROR")) return JSON.stringify(res.errors).slice(0, 200);
    // A query filtered by a foreign id may answer (with the intruder's own, empty, results); a
    // mutation given a foreign record must fail, or refuse the item (bulk operations answer each
    // item on its own); neither may show a record of the victim's.
    const shown = objectsIn(res.data);
    const victims = new Set(Object.values(ids));
    if (shown.some((o) => victims.has(o.id as string) || o.organizationId === victim.id) || JSON.stringify(res.data ?? {}).includes("Secret")) return `leaked ${JSON.stringify(res.data).slice(0, 200)}`;
    const refused = !!res.errors?.length || shown.some((o) => (o.error as { code?: string } | null)?.code);
    if (kind === "mutation" && !refused) return `accepted: ${JSON.stringify(res.data).slice(0, 200)}`;
    return undefined;
  }

  it("covers every operation that takes an id, inside input objects too", () => {
    // 71 operations take an id as an argument of their own (many of them an input object besides);
    // 12 more only inside an input object (clockIn, createShift, createStaffMember, lockDay, …).
    expect(candidates.length).toBeGreaterThanOrEqual(83);
    expect(candidates.map(([, f]) => f.name)).toEqual(expect.arrayContaining(["createShift", "clockIn", "createStaffMember", "lockDay", "createBreakType"]));
  });

  it("shows another organization's token nothing of the victim's and changes nothing, whichever record it names", async () => {
    const before = await victimChanges();
    const failures: string[] = [];
    for (const [kind, field] of candidates) {
      for (const [record, id] of Object.entries(ids)) {
        const wrong = await intrusion(kind, operationCalling(kind, field, () => id));
        if (wrong) failures.push(`${kind} ${field.name} with the victim's ${record}: ${wrong}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await victimChanges()).toBe(before);
  });

  it("refuses a single foreign id hidden among the intruder's own records, wherever the operation takes it", async () => {
    // A resolver that checks the first id it is given but not the others is caught only when the
    // others are valid: each id in turn is the victim's record of its kind, the rest the intruder's.
    const before = await victimChanges();
    const failures: string[] = [];
    let calls = 0;
    for (const [kind, field] of candidates) {
      for (let foreign = 0; foreign < idsTakenBy(kind, field); foreign++) {
        let place = 0;
        const operation = operationCalling(kind, field, (name) => recordIdFor(field, name, place++ === foreign ? ids : intruderIds));
        const wrong = await intrusion(kind, operation);
        if (wrong) failures.push(`${kind} ${field.name} with the victim's id at place ${foreign}: ${wrong}\n  ${operation}`);
        calls++;
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(160);
    expect(await victimChanges()).toBe(before);
  });
});
