import { readdirSync } from "node:fs";
import path from "node:path";

/** Every TypeScript file below `dir`, for tests that read the sources themselves. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}
