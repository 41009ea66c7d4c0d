import { Clock } from "./clock";
import { Config } from "../config";
import type { ApplicationDataSource } from "../database/data-source";
import type { ReadRouting } from "../database/read-routing";
import type { UnitOfWork } from "../database/unit-of-work";

/** What every service is built with. */
export interface ServiceDeps {
  /** The primary, for reads; every write goes through `unitOfWork`. */
  db: ApplicationDataSource;
  /** Opens the transaction every write runs in (database/unit-of-work.ts). */
  unitOfWork: UnitOfWork;
  clock: Clock;
  config: Config;
  /** Where reads that may lag a few seconds run (a replica, or the primary): services ask for it explicitly. */
  reads: ReadRouting;
}

/**
 * Every domain service by name, as GraphQL, REST and the command-line tools reach them. Empty here:
 * each `src/modules/<domain>/<domain>.module.ts` adds its own services to it, and the composition
 * root (`src/app/services.ts`) builds them, so that this low layer imports no module.
 */
export interface Services {}

/** Work the service does by itself at an interval (accruals, …). */
export interface ScheduledJob {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}
