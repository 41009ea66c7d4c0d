import { DataSource } from "typeorm";
import { Clock } from "../common/clock";
import { Config } from "../config";

/** What every service is built with. */
export interface ServiceDeps {
  db: DataSource;
  clock: Clock;
  config: Config;
}
