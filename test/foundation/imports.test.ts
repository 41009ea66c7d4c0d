import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { sourceFiles } from "../support/source-files";
import ts from "typescript";

/**
 * The source's import graph, type imports included: no cycle between files or between module
 * folders, modules reached only through their front door (`src/modules/<domain>/index.ts`), and few
 * imports from a lower layer back up to a higher one. Layers from the bottom: a folder may import
 * its own and lower ones.
 */
const LAYERS = ["errors", "config", "auth", "loaders", "common", "database", "graphql", "rest", "modules", "workflows", "mcp", "http", "app", "cli", "main"];
const MAX_UPWARD_IMPORTS = 5;

const SRC = path.join(__dirname, "../../../src");

/** The files under src/ that `file` imports or re-exports from (`import type` and `import("…")` types too). */
export function importsOf(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith("."))
    .map(({ fileName }) => path.resolve(path.dirname(file), fileName))
    .map((target) => [`${target}.ts`, path.join(target, "index.ts")].find((candidate) => existsSync(candidate)))
    .filter((target): target is string => target !== undefined && target.startsWith(SRC + path.sep));
}

/**
 * What a front door (`src/modules/<domain>/index.ts`) hands out of a store (`*.store.ts`): re-exports
 * from one (`export { … } from`, `export *`, types too) and names imported from one and exported again.
 */
export function storeExports(text: string): string[] {
  const source = ts.createSourceFile("index.ts", text, ts.ScriptTarget.Latest);
  const fromStore = (specifier: ts.Expression | undefined) => specifier !== undefined && ts.isStringLiteral(specifier) && /\.store$/.test(specifier.text);
  const imported = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !fromStore(statement.moduleSpecifier) || !statement.importClause) continue;
    const { name, namedBindings } = statement.importClause;
    if (name) imported.add(name.text);
    if (namedBindings && ts.isNamespaceImport(namedBindings)) imported.add(namedBindings.name.text);
    if (namedBindings && ts.isNamedImports(namedBindings)) for (const element of namedBindings.elements) imported.add(element.name.text);
  }
  return source.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement)) {
      const names = statement.exportClause && ts.isNamedExports(statement.exportClause) ? statement.exportClause.elements : undefined;
      if (fromStore(statement.moduleSpecifier)) return names ? names.map((e) => e.name.text) : ["*"];
      return (names ?? []).filter((e) => imported.has((e.propertyName ?? e.name).text)).map((e) => e.name.text);
    }
    if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression) && imported.has(statement.expression.text)) return ["default"];
    return [];
  });
}

/** The module folder (`modules/<domain>`) a file is in, if any. */
export function moduleOf(file: string): string | undefined {
  const [top, domain, ...rest] = path.relative(SRC, file).split(path.sep);
  return top === "modules" && rest.length ? `modules/${domain}` : undefined;
}

/**
 * Imports of another module's file other than its front door. Files below the modules' layer may
 * not pass through a front door (it leads back to them): their few imports up are counted as upward.
 */
export function pastFrontDoor(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) => {
    if (layerOf(file) < LAYERS.indexOf("modules") || (layerOf(file) === LAYERS.indexOf("modules") && !moduleOf(file))) return [];
    return targets
      .filter((target) => moduleOf(target) && moduleOf(target) !== moduleOf(file) && path.basename(target) !== "index.ts")
      .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
  });
}

/** The graph of module folders: which module imports which. */
export function moduleGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    if (!from) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = moduleOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return new Map([...folders].map(([folder, edges]) => [path.join(SRC, folder), [...edges].map((to) => path.join(SRC, to))]));
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
    expect(
      importsOf(file, text)
        .map((f) => path.relative(SRC, f))
        .sort(),
    ).toEqual(["auth/actor.ts", "common/services.ts", "errors/app-error.ts"]);
  });

  it("has no cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("finds a cycle between module folders that no two files close", () => {
    const at = (file: string) => path.join(SRC, file);
    const files = new Map([
      [at("modules/a/a.service.ts"), [at("modules/b/index.ts")]],
      [at("modules/b/index.ts"), [at("modules/b/b.rules.ts")]],
      [at("modules/b/b.rules.ts"), []],
      [at("modules/b/b.service.ts"), [at("modules/a/index.ts")]],
      [at("modules/a/index.ts"), []],
    ]);
    expect(cycles(files)).toEqual([]);
    expect(cycles(moduleGraph(files))).toEqual([["modules/a", "modules/b"]]);
  });

  it("has no cycle between module folders", () => {
    expect(cycles(moduleGraph(graph))).toEqual([]);
  });

  it("reaches another module only through its index.ts", () => {
    const at = (file: string) => path.join(SRC, file);
    const sample = new Map([
      [at("modules/a/a.service.ts"), [at("modules/b/index.ts"), at("modules/b/b.store.ts"), at("modules/a/a.store.ts")]],
      [at("app/modules.ts"), [at("modules/a/a.module.ts")]],
    ]);
    expect(pastFrontDoor(sample)).toEqual(["modules/a/a.service.ts -> modules/b/b.store.ts", "app/modules.ts -> modules/a/a.module.ts"]);
    expect(pastFrontDoor(graph)).toEqual([]);
  });

  it("hands out no store of a module through its front door", () => {
    const sample = [
      'export { selectA } from "./a.store";',
      'export type { ARow } from "./rows/a.store";',
      'export * from "./b.store";',
      'import { selectC, CRow as Row } from "./c.store";',
      "export { selectC, Row };",
      'export { AService } from "./a.service";',
    ].join("\n");
    expect(storeExports(sample)).toEqual(["selectA", "ARow", "*", "selectC", "Row"]);
    const doors = [...graph.keys()].filter((file) => moduleOf(file) && path.relative(path.join(SRC, moduleOf(file)!), file) === "index.ts");
    expect(doors.length).toBeGreaterThan(10);
    const handedOut = doors.flatMap((file) => storeExports(readFileSync(file, "utf8")).map((name) => `${path.relative(SRC, file)}: ${name}`));
    expect(handedOut).toEqual([]);
  });

  it(`has at most ${MAX_UPWARD_IMPORTS} imports from a lower layer up to a higher one`, () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(upward.length <= MAX_UPWARD_IMPORTS ? [] : upward).toEqual([]);
  });
});
