import { closeSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/** What a lock file says of the process that holds the data directory. */
interface Holder {
  pid: number;
  command: string;
  since: string;
}

/** Is a process with this id alive? (EPERM: alive, but another user's.) */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Holder;
  } catch {
    // Gone meanwhile, or half written by a process that died at that moment: no live holder.
    return undefined;
  }
}

/**
 * PGlite is one process's database: two processes opening the same DATA_DIR (the service and
 * `npm run seed`) would each write it without seeing the other, and corrupt it silently. The first
 * to open it writes its pid into `<DATA_DIR>.lock` (beside the directory, not in it, which belongs
 * to PostgreSQL); every other one is refused with a message naming that process. A lock whose
 * process is gone (a crash, a kill -9) is taken over.
 */
export class DataDirLock {
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(private readonly file: string) {
    process.once("exit", this.onExit);
  }

  static acquire(dataDir: string): DataDirLock {
    const file = `${path.resolve(dataDir)}.lock`;
    mkdirSync(path.dirname(file), { recursive: true });
    const holder: Holder = {
      pid: process.pid,
      command: process.argv
        .slice(1)
        .map((a) => path.relative(process.cwd(), a) || a)
        .join(" "),
      since: new Date().toISOString(),
    };
    // Written whole to a file of our own first, then linked into place: linking fails if a lock
    // exists, so no process ever reads a half-written lock of a live one.
    const draft = `${file}.${process.pid}`;
    const fd = openSync(draft, "w");
    try {
      writeSync(fd, JSON.stringify(holder));
    } finally {
      closeSync(fd);
    }
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          linkSync(draft, file);
          return new DataDirLock(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw error;
        }
        const current = readHolder(file);
        if (current && isAlive(current.pid)) {
          throw new Error(
            `DATA_DIR ${dataDir} is in use by process ${current.pid} (${current.command || "node"}, since ${current.since}). ` +
              `The embedded database serves one process at a time: stop that process first (or use its API), then run this again.`,
          );
        }
        // The holder is gone: take the stale lock over.
        try {
          unlinkSync(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
    } finally {
      unlinkSync(draft);
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    process.off("exit", this.onExit);
    try {
      unlinkSync(this.file);
    } catch {
      // Already gone: nothing to give back.
    }
  }
}
