import { ArgsType, ClassType, Field, Int, ObjectType } from "type-graphql";
import { ObjectLiteral, SelectQueryBuilder } from "typeorm";
import { Max, Min } from "./input-checks";
import { invalidField } from "../errors/app-error";
import { isUuid } from "./ids";

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  first?: number;

  @Field(() => String, { nullable: true, description: "The endCursor of the previous page" })
  after?: string;
}

@ObjectType({ simpleResolvers: true })
export class PageInfo {
  @Field()
  hasNextPage: boolean;

  @Field(() => String, { nullable: true })
  endCursor: string | null;
}

export interface Page<T> {
  nodes: T[];
  pageInfo: PageInfo;
}

/** A cursor connection of `T`: `nodes` in order and the cursor of the next page. */
export function Connection<T extends object>(Node: ClassType<T>) {
  @ObjectType({ simpleResolvers: true })
  abstract class ConnectionClass implements Page<T> {
    @Field(() => [Node])
    nodes: T[];

    @Field(() => PageInfo)
    pageInfo: PageInfo;
  }
  return ConnectionClass;
}

/** Keyset cursors: the sort key and id of the last row of a page, opaque to clients. */
export function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** What a cursor's sort value must be: the kind of the column the list is sorted by. */
export type SortKind = "timestamp" | "number" | "text";

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

function isSortValue(value: unknown, kind: SortKind): boolean {
  if (kind === "number") return typeof value === "number" && Number.isFinite(value);
  if (typeof value !== "string") return false;
  return kind === "text" || (ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)));
}

/**
 * The sort value and id of a cursor this service handed out. Anything else (not base64 JSON, not
 * a pair, a sort value of the wrong kind, an id that is not one) is refused as the client's mistake.
 */
export function decodeCursor(cursor: string, kind: SortKind): [string | number, string] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    // refused below
  }
  if (Array.isArray(values) && values.length === 2 && isSortValue(values[0], kind) && isUuid(values[1])) return values as [string | number, string];
  throw invalidField("after", "The cursor is not one this service handed out");
}

/**
 * Turns the rows of a page query that asked for `limit + 1` rows into a page; `cursorOf` gives the
 * keyset values of a row.
 */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => unknown[]): Page<T> {
  const hasNextPage = rows.length > limit;
  const nodes = hasNextPage ? rows.slice(0, limit) : rows;
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage, endCursor: last ? encodeCursor(cursorOf(last)) : null } };
}

/**
 * One page of rows kept in order of a time, then id (either way): `read` answers up to `count` rows
 * past the last row of the page before (one more than the page, to tell whether another follows);
 * `keyOf` is a row's time and id.
 */
export async function timeOrderedPage<T>(
  args: PageArgs,
  read: (count: number, after: [string, string] | undefined) => Promise<T[]>,
  keyOf: (row: T) => [Date, string],
): Promise<Page<T>> {
  const limit = pageSize(args.first);
  const rows = await read(limit + 1, args.after ? (decodeCursor(args.after, "timestamp") as [string, string]) : undefined);
  return toPage(rows, limit, (row) => {
    const [at, id] = keyOf(row);
    return [at.toISOString(), id];
  });
}

export function pageSize(first: number | undefined): number {
  return first ?? DEFAULT_PAGE_SIZE;
}

/**
 * One page of a TypeORM query, ordered by `sortColumn` then id (keyset pagination: stable under
 * inserts, and as fast on page 500 as on page 1).
 */
export async function paginate<T extends ObjectLiteral & { id: string }>(
  query: SelectQueryBuilder<T>,
  args: PageArgs,
  sortColumn: { property: keyof T & string; column: string },
): Promise<Page<T>> {
  const limit = pageSize(args.first);
  const alias = query.alias;
  if (args.after) {
    const column = query.expressionMap.mainAlias?.metadata.findColumnWithPropertyName(sortColumn.property);
    // The kind the cursor's sort value was written as (a bigint arrives from the driver as text).
    const type = String(column?.type ?? "");
    const kind: SortKind =
      column?.type === Date || /time|date/.test(type) ? "timestamp" : column?.type === Number || /^(int|integer|smallint)$/.test(type) ? "number" : "text";
    const [sortValue, id] = decodeCursor(args.after, kind);
    query.andWhere(`(${alias}.${sortColumn.column}, ${alias}.id) > (:cursorSort, :cursorId)`, {
      cursorSort: sortValue,
      cursorId: id,
    });
  }
  const rows = await query
    .orderBy(`${alias}.${sortColumn.column}`, "ASC")
    .addOrderBy(`${alias}.id`, "ASC")
    .take(undefined)
    .limit(limit + 1)
    .getMany();
  return toPage(rows, limit, (row) => {
    const value = row[sortColumn.property] as unknown;
    return [value instanceof Date ? value.toISOString() : value, row.id];
  });
}
