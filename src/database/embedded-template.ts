import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A new embedded data directory starts as a copy of one made before with every migration applied:
 * creating a PGlite cluster (its initdb) and running the migrations one by one took most of a
 * first start, and grows with every migration, while copying files takes a fixed fraction of it.
 * The copy is taken right after the migrations, before the service keeps anything of its own in
 * the database (its signing secret, the platform key), so it holds nothing but the schema: a data
 * directory of a cleanly closed cluster, copied with the file system (a new data directory on disk
 * opens like an existing one), and the same as PGlite's tarball, which an in-memory database is
 * loaded from (unpacking it inside PGlite costs several times a copy, still far less than initdb).
 * Both are kept beside the compiled migrations and named for them, PGlite's version and the
 * embedded settings: a change of any makes new ones, made by the next start that creates a data
 * directory without them.
 */
export class EmbeddedTemplate {
  private constructor(readonly file: string) {}

  static for(migrationsDir: string, settings: string[]): EmbeddedTemplate {
    const hash = createHash("sha256");
    // The package's main file lies in its dist/ folder; the package does not export its package.json.
    hash.update(JSON.parse(readFileSync(path.join(path.dirname(require.resolve("@electric-sql/pglite")), "..", "package.json"), "utf8")).version);
    hash.update(JSON.stringify(settings));
    for (const name of readdirSync(migrationsDir)
      .filter((n) => n.endsWith(".js"))
      .sort()) {
      hash.update(name);
      hash.update(readFileSync(path.join(migrationsDir, name)));
    }
    return new EmbeddedTemplate(path.join(migrationsDir, "..", ".embedded-templates", hash.digest("hex").slice(0, 32)));
  }

  /** Whether there is one to start `dataDir` from: the tarball for an in-memory database, the directory for one on disk. */
  serves(dataDir: string): boolean {
    return dataDir === "memory://" ? existsSync(`${this.file}.tar.gz`) : existsSync(path.join(this.file, "PG_VERSION"));
  }

  /** The file of the tarball an in-memory database is loaded from. */
  tarballFile(): string {
    return `${this.file}.tar.gz`;
  }

  /** Copies the template's data directory to `dataDir`, which then opens as an existing one. */
  copyTo(dataDir: string): void {
    cpSync(this.file, dataDir, { recursive: true });
  }

  /**
   * Keeps `tarball` and a copy of the closed cluster in `dataDir`; each is written whole under
   * another name first, so that a reader (another process starting) never sees part of one.
   */
  async keep(tarball: Blob, dataDir: string | undefined): Promise<void> {
    const folder = path.dirname(this.file);
    mkdirSync(folder, { recursive: true });
    // Templates of earlier migrations serve nothing any more (tens of megabytes each).
    const current = path.basename(this.file);
    for (const entry of readdirSync(folder)) if (!entry.startsWith(current)) rmSync(path.join(folder, entry), { recursive: true, force: true });
    const partial = `${this.file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    renameSync(partial, `${this.file}.tar.gz`);
    if (!dataDir || existsSync(this.file)) return;
    rmSync(partial, { recursive: true, force: true });
    cpSync(dataDir, partial, { recursive: true, filter: (source) => !/postmaster\.pid$/.test(source) });
    try {
      renameSync(partial, this.file);
    } catch {
      // Another process kept the same template meanwhile.
      rmSync(partial, { recursive: true, force: true });
    }
  }
}

/** Whether `dataDir` holds no PostgreSQL cluster yet (PGlite would create one). */
export function isNewDataDir(dataDir: string): boolean {
  return dataDir === "memory://" || !existsSync(path.join(dataDir, "PG_VERSION"));
}
