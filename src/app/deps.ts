import { DataSource } from "typeorm";
import { Clock } from "../common/clock";
import { Config } from "../config";
import { ReadRouting } from "../database/read-routing";

/** What every service is built with. */
export interface ServiceDeps {
  db: DataSource;
  clock: Clock;
  config: Config;
  /** Where reads that may lag a few seconds run (a replica, or the primary): services ask for it explicitly. */
  reads: ReadRouting;
}
