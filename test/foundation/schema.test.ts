import { readFileSync } from "node:fs";
import { printedSchema, SCHEMA_FILE } from "../../src/cli/emit-schema";

describe("schema.graphql", () => {
  it("is the schema the code builds (run `npm run schema` after changing the API)", () => {
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(printedSchema());
  });
});
