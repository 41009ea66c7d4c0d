import { getNamedType, GraphQLField, GraphQLObjectType, isNonNullType, isObjectType, isScalarType, isEnumType } from "graphql";
import { graphqlSchema } from "../../src/graphql/schema";
import { TestOrganization, TestService } from "../support/harness";
import { victimRecords } from "../support/records";

/** A value for a scalar argument that is not an id. */
const SCALAR_VALUES: Record<string, unknown> = { String: "2026-03-02", Boolean: true, Int: 10, Float: 1 };

/**
 * Every GraphQL query and mutation that takes an id, called with a token of another organization
 * and each of the victim's record ids in turn: no data of the victim's, mutations refused, nothing
 * changed.
 * Generated from the schema, so a new operation is covered the day it is added. (Operations whose
 * other required arguments are input objects are covered through their REST paths.)
 */
describe("tenant isolation across the GraphQL schema", () => {
  let t: TestService;
  let victim: TestOrganization;
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await TestService.start();
    victim = await t.organization("Victim");
    ids = await victimRecords(t, victim);
  });
  afterAll(() => t.stop());

  it("shows another organization's token nothing of the victim's and changes nothing", async () => {
    const schema = graphqlSchema();
    const intruder = await t.organization("Intruder");
    const candidates: [string, GraphQLField<unknown, unknown>][] = [];
    for (const [kind, type] of [["query", schema.getQueryType()], ["mutation", schema.getMutationType()]] as const) {
      for (const field of Object.values((type as GraphQLObjectType).getFields())) {
        const hasId = field.args.some((a) => getNamedType(a.type).name === "ID");
        const fillable = field.args.every((a) => !isNonNullType(a.type) || getNamedType(a.type).name === "ID" || SCALAR_VALUES[getNamedType(a.type).name] !== undefined);
        if (hasId && fillable) candidates.push([kind, field]);
      }
    }
    expect(candidates.length).toBeGreaterThan(15);
    const count = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [victim.id]))[0].n);
    const before = await count();
    const failures: string[] = [];
    for (const [kind, field] of candidates) {
      const selection = isObjectType(getNamedType(field.type)) ? "{ __typename }" : "";
      for (const [record, id] of Object.entries(ids)) {
        const args = field.args
          .filter((a) => isNonNullType(a.type) || getNamedType(a.type).name === "ID")
          .map((a) => {
            const named = getNamedType(a.type);
            const value = named.name === "ID" ? id : isScalarType(named) || isEnumType(named) ? SCALAR_VALUES[named.name] : undefined;
            return value === undefined ? "" : `${a.name}: ${JSON.stringify(value)}`;
          })
          .filter(Boolean)
          .join(", ");
        const res = await t.gql(intruder.token, `${kind} { ${field.name}(${args}) ${selection} }`);
        // A query filtered by a foreign id may answer (with the intruder's own, empty, results); a
        // mutation on a foreign record must fail; neither may show anything of the victim's.
        const shown = JSON.stringify(res.data ?? {});
        const leaked = shown.includes("Secret") || Object.values(ids).some((v) => shown.includes(v));
        if ((kind === "mutation" && !res.errors?.length) || leaked) failures.push(`${kind} ${field.name} with the victim's ${record}: ${shown.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await count()).toBe(before);
  });
});
