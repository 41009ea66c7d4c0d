import { DataSource, EntityManager, EntityMetadata, EntityNotFoundError, EntityTarget, ObjectLiteral } from "typeorm";
import type { ColumnMetadata } from "typeorm/metadata/ColumnMetadata";

/** The data source, or a transaction's manager. */
type Queryable = DataSource | EntityManager;

/**
 * Reads of whole entities by equal column values, answered as TypeORM's `findOneBy` answers them
 * (the same columns, the same hydration through the driver and the columns' transformers, soft-deleted
 * rows left out) but without its query builder: its per-call building of aliases, selections and
 * escaping was a quarter of a time-off request's CPU in the service. Each statement's text is built
 * once per entity and shape, so it is also sent as the same prepared statement every time.
 *
 * For entities without relations or load listeners, as every entity of this service is (a test
 * reads every entity through both). Pages keep TypeORM's query builder (common/pagination.ts).
 */

/** The row lock a read takes until its transaction ends: `update` as TypeORM's pessimistic_write, `share` as its pessimistic_read. */
export type RowLock = "update" | "share";

/** A column's value to match. */
type Matched = string | number | boolean;

export interface EntityReadOptions {
  lock?: RowLock;
  /** Include soft-deleted rows (an entity with a delete date column leaves them out otherwise). */
  withDeleted?: boolean;
}

interface EntityShape {
  metadata: EntityMetadata;
  columns: ColumnMetadata[];
  /** `SELECT … FROM table` */
  from: string;
  /** Statement texts by where-columns, lock and soft-delete choice. */
  texts: Map<string, string>;
}

const shapes = new WeakMap<EntityMetadata, EntityShape>();

const managerOf = (db: Queryable): EntityManager => (db instanceof EntityManager ? db : db.manager);

function shapeOf(manager: EntityManager, target: EntityTarget<ObjectLiteral>): EntityShape {
  const metadata = manager.connection.getMetadata(target);
  let shape = shapes.get(metadata);
  if (!shape) {
    if (metadata.relations.length || metadata.afterLoadListeners.length || metadata.schema)
      throw new Error(`${metadata.name}: entity reads take entities of the default schema without relations or load listeners`);
    const columns = metadata.columns.filter((c) => !c.isVirtual && c.isSelect);
    const escape = (name: string) => manager.connection.driver.escape(name);
    shape = { metadata, columns, from: `SELECT ${columns.map((c) => escape(c.databaseName)).join(", ")} FROM ${escape(metadata.tableName)}`, texts: new Map() };
    shapes.set(metadata, shape);
  }
  return shape;
}

const lockClause = (lock: RowLock | undefined) => (lock === "update" ? " FOR UPDATE" : lock === "share" ? " FOR SHARE" : "");

/** Leaves soft-deleted rows out, for an entity with a delete date column, unless `withDeleted`. */
function aliveClause(manager: EntityManager, shape: EntityShape, options: EntityReadOptions): string {
  const deleted = shape.metadata.deleteDateColumn;
  return deleted && !options.withDeleted ? ` AND ${manager.connection.driver.escape(deleted.databaseName)} IS NULL` : "";
}

/** The statement for the row whose `properties` equal the values given, in order. */
function textOf(manager: EntityManager, shape: EntityShape, properties: string[], options: EntityReadOptions): string {
  const key = `${properties.join(",")}|${options.lock ?? ""}|${options.withDeleted ? "all" : ""}`;
  let text = shape.texts.get(key);
  if (!text) {
    const conditions = properties.map((property, i) => {
      const column = shape.metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${shape.metadata.name} has no column for ${property}`);
      return `${manager.connection.driver.escape(column.databaseName)} = $${i + 1}`;
    });
    text = `${shape.from} WHERE ${conditions.join(" AND ")}${aliveClause(manager, shape, options)} LIMIT 1${lockClause(options.lock)}`;
    shape.texts.set(key, text);
  }
  return text;
}

/** An entity from its row, as TypeORM hydrates one: each selected column through the driver, then its transformer. */
function hydrate<T>(manager: EntityManager, shape: EntityShape, row: Record<string, unknown>): T {
  const entity = shape.metadata.create(manager.queryRunner, { fromDeserializer: true });
  for (const column of shape.columns) {
    const value = row[column.databaseName];
    if (value !== undefined) column.setEntityValue(entity, manager.connection.driver.prepareHydratedValue(value, column));
  }
  return entity as T;
}

/** The entity whose columns equal `where`'s values, or null: TypeORM's `findOneBy`, with `lock` held until the transaction ends. */
export async function findOneBy<T extends ObjectLiteral>(
  db: Queryable,
  target: EntityTarget<T>,
  where: Partial<Record<keyof T & string, Matched>>,
  options: EntityReadOptions = {},
): Promise<T | null> {
  const manager = managerOf(db);
  const shape = shapeOf(manager, target);
  const properties = Object.keys(where);
  const rows: Record<string, unknown>[] = await manager.query(
    textOf(manager, shape, properties, options),
    properties.map((p) => where[p as keyof T & string]),
  );
  return rows.length ? hydrate<T>(manager, shape, rows[0]) : null;
}

/** As `findOneBy`, but a missing entity is TypeORM's EntityNotFoundError: for rows the caller knows exist. */
export async function findOneByOrFail<T extends ObjectLiteral>(
  db: Queryable,
  target: EntityTarget<T>,
  where: Partial<Record<keyof T & string, Matched>>,
  options: EntityReadOptions = {},
): Promise<T> {
  const found = await findOneBy(db, target, where, options);
  if (!found) throw new EntityNotFoundError(target, where);
  return found;
}

/**
 * The entities whose rows meet `condition` (SQL over the table's own columns, `$1`… for `params`),
 * sorted by `orderBy` (SQL) or in no particular order, soft-deleted ones left out unless `withDeleted`.
 */
export async function findWhere<T extends ObjectLiteral>(
  db: Queryable,
  target: EntityTarget<T>,
  condition: string,
  params: unknown[],
  options: EntityReadOptions & { orderBy?: string } = {},
): Promise<T[]> {
  const manager = managerOf(db);
  const shape = shapeOf(manager, target);
  const order = options.orderBy ? ` ORDER BY ${options.orderBy}` : "";
  const rows: Record<string, unknown>[] = await manager.query(
    `${shape.from} WHERE (${condition})${aliveClause(manager, shape, options)}${order}${lockClause(options.lock)}`,
    params,
  );
  return rows.map((row) => hydrate<T>(manager, shape, row));
}

/** The organization's entities with these ids, in no particular order (ids it does not hold are left out). */
export function findByIds<T extends ObjectLiteral>(db: Queryable, target: EntityTarget<T>, organizationId: string, ids: readonly string[]): Promise<T[]> {
  return findWhere(db, target, "organization_id = $1 AND id = ANY($2::uuid[])", [organizationId, ids]);
}
