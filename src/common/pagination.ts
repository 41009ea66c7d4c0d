import { ArgsType, ClassType, Field, Int, ObjectType } from "type-graphql";
import { ObjectLiteral, SelectQueryBuilder } from "typeorm";
import { Max, Min } from "class-validator";
import { invalidField } from "../errors/app-error";

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

@ObjectType()
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
  @ObjectType()
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

export function decodeCursor(cursor: string): unknown[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(values)) return values;
  } catch {
    // fall through to the clear error below
  }
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
    const [sortValue, id] = decodeCursor(args.after);
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
