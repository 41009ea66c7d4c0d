import type { GatewayExecutor } from "@apollo/server-gateway-interface";
import { buildSchema, getIntrospectionQuery, graphqlSync, GraphQLEnumType, GraphQLSchema, parse } from "graphql";
import { graphqlSchema } from "../../src/app/modules";
import { compiledExecutor, compileOperation } from "../../src/graphql/compiled-operations";
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

  describe("the executor", () => {
    const executorOf = async (schema: GraphQLSchema): Promise<(source: string, variables?: Record<string, unknown>) => Promise<unknown>> => {
      const { executor } = (await compiledExecutor(schema).load({ apollo: {} } as never)) as { executor: GatewayExecutor };
      return (source, variables = {}) => executor({ source, document: parse(source), operationName: undefined, request: { variables }, context } as never);
    };

    it("gives a query about the schema alone the answer it gave before, which is graphql-js's", async () => {
      const schema = graphqlSchema();
      const run = await executorOf(schema);
      const introspection = getIntrospectionQuery();
      const first = await run(introspection);
      expect(first).toEqual(JSON.parse(JSON.stringify(graphqlSync({ schema, source: introspection }))));
      expect(await run(introspection)).toBe(first);
      // Each variable's value its own answer.
      const typeNamed = "query T($name: String!) { __type(name: $name) { name kind } }";
      expect(await run(typeNamed, { name: "Query" })).toEqual({ data: { __type: { name: "Query", kind: "OBJECT" } } });
      expect(await run(typeNamed, { name: "Mutation" })).toEqual({ data: { __type: { name: "Mutation", kind: "OBJECT" } } });
      expect(await run(typeNamed, { name: "Query" })).toEqual({ data: { __type: { name: "Query", kind: "OBJECT" } } });
    });

    it("runs anew every query that reads more than the schema, and every refused one", async () => {
      const schema = buildSchema("type Query { count: Int! }");
      let count = 0;
      schema.getQueryType()!.getFields().count.resolve = () => ++count;
      const run = await executorOf(schema);
      expect(await run("{ __typename count }")).toEqual({ data: { __typename: "Query", count: 1 } });
      expect(await run("{ __typename count }")).toEqual({ data: { __typename: "Query", count: 2 } });
      const typeNamed = "query T($name: String!) { __type(name: $name) { name } }";
      const refused = await run(typeNamed, { name: 3 });
      expect(refused).toMatchObject({ errors: [expect.objectContaining({ message: expect.stringContaining('Variable "$name" got invalid value 3') })] });
      expect(await run(typeNamed, { name: 3 })).not.toBe(refused);
    });
  });
});
