import { parse } from "graphql";
import { graphqlSchema, restRoutes } from "../../src/app/modules";
import { MCP_TOOLS } from "../../src/mcp/tools";
import { assertValidOperation, compileGuardedOperation } from "../../src/rest/shim";

/** The service validates these before their first call, not at start: a broken one must fail here. */
describe("the operations REST routes and MCP tools run", () => {
  const schema = graphqlSchema();
  const operations = [
    ...restRoutes.map((route) => ({ where: `REST route ${route.method} ${route.path}`, text: route.operation })),
    ...MCP_TOOLS.flatMap((tool) => Object.values(tool.operations).map((text) => ({ where: `MCP tool ${tool.name}`, text }))),
  ];

  it.each(operations.map((o) => [o.where, o.text]))("%s is valid against the schema", (where, text) => {
    expect(() => assertValidOperation(schema, parse(text), where)).not.toThrow();
  });

  it("an invalid one is refused before its first call runs, naming its user", () => {
    const broken = compileGuardedOperation(schema, "query brokenRoute { shift(nonsense: 1) { id } }", "REST route GET /api/broken");
    expect(() => broken.run({} as never, {})).toThrow(/^REST route GET \/api\/broken: .*nonsense/);
    expect(() => assertValidOperation(schema, parse("query brokenRoute { shift(nonsense: 1) { id } }"), "here")).toThrow(/^here: /);
  });
});
