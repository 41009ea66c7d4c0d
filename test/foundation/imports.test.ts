import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The source's import graph, type imports included: no cycle, and few imports from a lower layer
 * back up to a higher one. Layers from the bottom: a folder may import its own and lower ones.
 */
const LAYERS = ["errors", "config", "auth", "loaders", "common", "database", "graphql", "rest", "modules", "workflows", "http", "app", "cli", "main"];
const MAX_UPWARD_IMPORTS = 25;

const SRC = path.join(__dirname, "../../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The files under src/ that `file` imports or re-exports from (`import type` and `import("…")` types too). */
export function importsOf(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith("."))
    .map(({ fileName }) => path.resolve(path.dirname(file), fileName))
    .map((target) => [`${target}.ts`, path.join(target, "index.ts")].find((candidate) => existsSync(candidate)))
    .filter((target): target is string => target !== undefined && target.startsWith(SRC + path.sep));
}

function layerOf(file: string): number {
  const top = path.relative(SRC, file).split(path.sep)[0].replace(/\.ts$/, "");
  const layer = LAYERS.indexOf(top);
  if (layer < 0) throw new Error(`${top} is in no layer: add it to LAYERS`);
  return layer;
}

/** The strongly connected groups of more than one file (or a file importing itself): each is a cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || graph.get(file)?.includes(file)) found.push(group.map((f) => path.relative(SRC, f)).sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe("the import graph of src/", () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file, readFileSync(file, "utf8"))]));

  it("reads type imports, re-exports and import() types as imports", () => {
    const file = path.join(SRC, "modules/x/x.ts");
    const text = [
      'import type { A } from "../../common/services";',
      'export { B } from "../../errors/app-error";',
      'type C = import("../../auth/actor").Actor;',
    ].join("\n");
    expect(importsOf(file, text).map((f) => path.relative(SRC, f)).sort()).toEqual(["auth/actor.ts", "common/services.ts", "errors/app-error.ts"]);
  });

  it("has no cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it(`has at most ${MAX_UPWARD_IMPORTS} imports from a lower layer up to a higher one`, () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(upward.length <= MAX_UPWARD_IMPORTS ? [] : upward).toEqual([]);
  });
});
