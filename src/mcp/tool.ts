import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DEFAULT_PAGE, MAX_PAGE } from "./pages";

/** How an assistant's tool is declared: what it takes and answers, and the GraphQL operations it runs. */

/**
 * Runs one of the tool's operations for the caller: its guard, validation, resolvers and audit, as
 * any GraphQL call; `check` does what comes before the run (the guard, the variables' types) and
 * runs nothing, for a dry run.
 */
export interface RunOperation {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an operation answers its selection, typed by the tool that reads it
  (name: string, variables: Record<string, unknown>): Promise<any>;
  check(name: string, variables: Record<string, unknown>): Promise<void>;
}

export interface McpTool<In extends z.ZodRawShape = z.ZodRawShape, Out extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** The GraphQL operations it runs, by name (each one root field). */
  operations: Record<string, string>;
  /** The operation whose permission decides whether a caller is offered the tool at all. */
  offeredWith: string;
  /** A tool that writes: annotated as such, and taking `dryRun` (default true). */
  writes?: { destructive: boolean; idempotent: boolean };
  input: In;
  output: Out;
  run(operation: RunOperation, args: z.infer<z.ZodObject<In>>): Promise<z.infer<z.ZodObject<Out>>>;
}

/** Declares a tool with its types inferred. */
export const tool = <In extends z.ZodRawShape, Out extends z.ZodRawShape>(spec: McpTool<In, Out>): McpTool => spec as unknown as McpTool;

export function annotationsOf(t: McpTool): ToolAnnotations {
  if (!t.writes) return { title: t.title, readOnlyHint: true, openWorldHint: false };
  return { title: t.title, readOnlyHint: false, destructiveHint: t.writes.destructive, idempotentHint: t.writes.idempotent, openWorldHint: false };
}

export const page = {
  limit: z.number().int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE).describe(`Page size, 1 to ${MAX_PAGE}`),
  cursor: z.string().max(500).optional().describe("nextCursor of the previous answer"),
};

export const nextCursor = z.string().nullable().describe("Pass as cursor for the next page; null on the last page");

export const dryRun = z.boolean().default(true).describe("true (the default): answer what would change and change nothing; false: make the change");

export const date = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD")
    .describe(what);

/** A page of a list the service answers whole (coverage lines, eligibility): `cursor` is the offset of the page. */
export function slicePage<T>(all: T[], limit: number, cursor: string | undefined): { items: T[]; nextCursor: string | null } {
  const start = cursor && /^\d{1,9}$/.test(cursor) ? Number(cursor) : 0;
  const end = start + limit;
  return { items: all.slice(start, end), nextCursor: end < all.length ? String(end) : null };
}

/** A connection's page in a tool's words: its nodes mapped, and the cursor of the next page. */
export function pageOf<T, R>(
  connection: { nodes: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } },
  map: (node: T) => R,
): { items: R[]; nextCursor: string | null } {
  return { items: connection.nodes.map(map), nextCursor: connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null };
}
