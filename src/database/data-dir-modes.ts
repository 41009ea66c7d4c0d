import { chmodSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The embedded database's directory holds every record and, in its write-ahead log, the token
 * signing secret: only the service's user may read it. Files are created under umask 077 (so
 * PGlite's are 0600), a new directory 0700, and a directory others may enter is refused with the
 * command that fixes it, rather than opened as it is.
 */
export function prepareDataDir(dataDir: string): void {
  const dir = path.resolve(dataDir);
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { mode } = statSync(dir);
  if ((mode & 0o077) !== 0) {
    const shown = (mode & 0o777).toString(8).padStart(4, "0");
    throw new Error(
      `DATA_DIR ${dir} is open to other users (mode ${shown}), and it holds the token signing secret: run \`chmod -R go-rwx ${dir}\` (the directory then 0700) and start again`,
    );
  }
}

/**
 * PGlite lays out a new cluster from its own archive with the archive's modes (0666), whatever the
 * umask: once it is open, whatever it wrote is made the owner's only.
 */
export function tightenDataDir(dataDir: string): void {
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const full = path.join(dir, entry.name);
      chmodSync(full, entry.isDirectory() ? 0o700 : 0o600);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(path.resolve(dataDir));
}
