import type { DataSource, EntityManager } from "typeorm";

/** What a store function runs its SQL on: the data source, or a transaction's manager. */
export type Queryable = DataSource | EntityManager;
