import { buildSchema, GraphQLEnumType, parse } from "graphql";
import { graphqlSchema } from "../../src/app/modules";
import { compileOperation } from "../../src/graphql/compiled-operations";
import type { RequestContext } from "../../src/graphql/context";

const context = {} as RequestContext;

describe("compiled operations", () => {
  it("answer leaves as the resolvers give them, and still refuse a null where the schema allows none", async () => {
    const schema = buildSchema("enum Kind { SWAP COVER } type Query { kind: Kind! count: Int! note: String missing: String! }");
    const run = (query: string) =>
      compileOperation(schema, parse(query))(context, {}) as Promise<{ data?: Record<string, unknown> | null; errors?: readonly Error[] }>;
    schema.getQueryType()!.getFields().kind.resolve = () => "COVER";
    schema.getQueryType()!.getFields().count.resolve = () => 3;
    schema.getQueryType()!.getFields().note.resolve = () => null;
    expect(await run("{ kind count note }")).toEqual({ data: { kind: "COVER", count: 3, note: null } });
    const refused = await run("{ count missing }");
    expect(refused.data).toBeNull();
    expect(refused.errors?.[0].message).toBe("Cannot return null for non-nullable field Query.missing.");
  });

  it("refuse at start a schema with an enum whose value is not its name, which an answer would show as is", () => {
    const schema = buildSchema("enum Kind { SWAP COVER } type Query { kind: Kind }");
    (schema.getType("Kind") as GraphQLEnumType).getValue("COVER")!.value = 2;
    expect(() => compileOperation(schema, parse("{ kind }"))).toThrow("enum Kind: the value of COVER is 2, not its name");
  });

  it("compile against the service's schema, whose enums are all named by their values", () => {
    expect(() => compileOperation(graphqlSchema(), parse("{ __typename }"))).not.toThrow();
  });
});
