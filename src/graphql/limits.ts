import type { ErrorCode } from "../errors/error-codes";
import { DEFAULT_PAGE_SIZE } from "../common/pagination";
import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLError,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationContext,
  ValidationRule,
  getNamedType,
  isListType,
  getNullableType,
  GraphQLObjectType,
  GraphQLInterfaceType,
  GraphQLOutputType,
  GraphQLSchema,
  GraphQLField,
  isIntrospectionType,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
} from "graphql";

export const MAX_DEPTH = 12;
export const MAX_COST = 200_000;
export const MAX_ALIASES = 50;
/** Selections of one operation, each fragment counted every time it is used. */
export const MAX_SELECTIONS = 2_000;
/** How often one response name may be selected in one selection set (fragments merged in). */
export const MAX_REPEATS = 25;
/** Assumed length of a plain list (the breaks of a shift, the roles of a staff member). */
const DEFAULT_LIST_SIZE = 20;

type Fragments = Record<string, FragmentDefinitionNode>;

/** The nodes of a connection were already counted by the page size of the connection field. */
const CONNECTION_CONTENTS = new Set(["nodes", "edges"]);

/**
 * How many times a field's subtree runs: the page size of a paginated field (its `first` or
 * `limit`, else the default page size), an assumed length for a plain list, else once.
 */
function multiplier(field: FieldNode, type: GraphQLOutputType, variables: Record<string, unknown>): number {
  const given = pageArgument(field, variables);
  if (given !== undefined) return given;
  const named = getNamedType(type);
  if (named instanceof GraphQLObjectType && named.getFields().nodes && named.getFields().pageInfo) return DEFAULT_PAGE_SIZE;
  if (isListType(getNullableType(type)) && !CONNECTION_CONTENTS.has(field.name.value)) return DEFAULT_LIST_SIZE;
  return 1;
}

function pageArgument(field: FieldNode, variables: Record<string, unknown>): number | undefined {
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== "first" && arg.name.value !== "limit") continue;
    if (arg.value.kind === Kind.INT) return Number(arg.value.value);
    if (arg.value.kind === Kind.VARIABLE) {
      const v = variables[arg.value.name.value];
      if (typeof v === "number") return v;
    }
  }
  return undefined;
}

interface Measure {
  depth: number;
  cost: number;
  aliases: number;
}

/** Raised inside the walk once a document is past a limit that makes the rest of the walk pointless. */
class TooLarge extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The state of one walk: how many selections it has visited, fragments inlined. */
interface Walk {
  schema: GraphQLSchema;
  fragments: Fragments;
  variables: Record<string, unknown>;
  seen: Set<string>;
  selections: number;
}

/** The field a selection names, including the introspection fields every type has. */
function fieldDefinition(schema: GraphQLSchema, parent: GraphQLObjectType | GraphQLInterfaceType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === SchemaMetaFieldDef.name && parent === schema.getQueryType()) return SchemaMetaFieldDef;
  if (name === TypeMetaFieldDef.name && parent === schema.getQueryType()) return TypeMetaFieldDef;
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  return parent.getFields()[name];
}

/**
 * Measures one selection set with its fragments inlined. `level` counts the response names of the
 * set (fragments add to their parent's set): validation compares every pair of fields that share a
 * response name, so a name repeated n times costs n² before anything runs.
 */
function measure(walk: Walk, parent: GraphQLObjectType | GraphQLInterfaceType, selectionSet: SelectionSetNode, level: Map<string, number>): Measure {
  let depth = 0;
  let cost = 0;
  let aliases = 0;
  for (const selection of selectionSet.selections) {
    if (++walk.selections > MAX_SELECTIONS) {
      throw new TooLarge("QUERY_TOO_LARGE", `The query selects more than ${MAX_SELECTIONS} fields (fragments counted where they are used)`);
    }
    let inner: Measure | undefined;
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) aliases++;
      const responseName = selection.alias?.value ?? selection.name.value;
      const repeats = (level.get(responseName) ?? 0) + 1;
      if (repeats > MAX_REPEATS) {
        throw new TooLarge("QUERY_TOO_REPETITIVE", `The query selects "${responseName}" ${repeats} times in one place; the limit is ${MAX_REPEATS}`);
      }
      level.set(responseName, repeats);
      const def = fieldDefinition(walk.schema, parent, selection.name.value);
      const type = def?.type as GraphQLOutputType;
      const named = def && getNamedType(type);
      if (!def || !(named instanceof GraphQLObjectType || named instanceof GraphQLInterfaceType)) {
        if (!selection.selectionSet) {
          if (!def) continue;
          inner = { depth: 1, cost: 1, aliases: 0 };
        } else {
          // Fields under a field that is unknown or has none: validation refuses them, but only after
          // comparing them all; they count here, so a deep or large nest of them never gets that far.
          const child = measure(walk, parent, selection.selectionSet, new Map());
          inner = { depth: child.depth + 1, cost: 1 + child.cost, aliases: child.aliases };
        }
      } else if (selection.selectionSet) {
        const child = measure(walk, named, selection.selectionSet, new Map());
        // The schema's description is as large as the schema, not as the data: its lists and its
        // nesting (a type reference's ofType chain) count once; the size limit still bounds it.
        const schemaPart = isIntrospectionType(named);
        const times = schemaPart ? 1 : multiplier(selection, type, walk.variables);
        inner = { depth: child.depth + (schemaPart ? 0 : 1), cost: times * (1 + child.cost), aliases: child.aliases };
      } else {
        inner = { depth: 1, cost: 1, aliases: 0 };
      }
    } else {
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments[selection.name.value] : undefined;
      const set = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragment?.selectionSet;
      const typeName = selection.kind === Kind.INLINE_FRAGMENT ? selection.typeCondition?.name.value : fragment?.typeCondition.name.value;
      const key = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : "";
      if (!set || (key && walk.seen.has(key))) continue;
      const onType = (typeName ? walk.schema.getType(typeName) : parent) as GraphQLObjectType | GraphQLInterfaceType;
      if (key) walk.seen.add(key);
      inner = measure(walk, onType && "getFields" in onType ? onType : parent, set, level);
      if (key) walk.seen.delete(key);
    }
    depth = Math.max(depth, inner.depth);
    cost += inner.cost;
    aliases += inner.aliases;
  }
  return { depth, cost, aliases };
}

function fragmentsOf(document: DocumentNode): Fragments {
  const fragments: Fragments = {};
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  }
  return fragments;
}

/** What the one walk of an operation found: the limits it breaks, and its cost. */
export interface OperationSize {
  errors: GraphQLError[];
  /** Fields times page sizes, with the request's variables: the points it spends of a rate limit (at least 1). */
  cost: number;
}

/**
 * The limits an operation breaks, cheapest first: its size (selections with fragments inlined, and
 * repeats of one response name in one place), then depth, cost and aliases; and what it costs. The
 * walk stops at the size limit, so its own work is bounded too however the fragments nest.
 */
export function sizeOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): OperationSize {
  const root =
    operation.operation === "mutation"
      ? schema.getMutationType()
      : operation.operation === "subscription"
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return { errors: [], cost: 1 };
  const fragments = fragmentsOf(document);
  let m: Measure;
  try {
    m = measure({ schema, fragments, variables, seen: new Set(), selections: 0 }, root, operation.selectionSet, new Map());
  } catch (error) {
    if (error instanceof TooLarge) return { errors: [new GraphQLError(error.message, { nodes: [operation], extensions: { code: error.code } })], cost: 1 };
    throw error;
  }
  const errors: GraphQLError[] = [];
  if (m.depth > MAX_DEPTH) {
    errors.push(
      new GraphQLError(`The query is ${m.depth} levels deep; the limit is ${MAX_DEPTH}`, { nodes: [operation], extensions: { code: "QUERY_TOO_DEEP" } }),
    );
  }
  if (m.cost > MAX_COST) {
    errors.push(
      new GraphQLError(`The query would cost ${m.cost} (fields times page sizes); the limit is ${MAX_COST}. Ask for smaller pages or fewer fields`, {
        nodes: [operation],
        extensions: { code: "QUERY_TOO_COSTLY" },
      }),
    );
  }
  if (m.aliases > MAX_ALIASES) {
    errors.push(
      new GraphQLError(`The query uses ${m.aliases} aliases; the limit is ${MAX_ALIASES}`, {
        nodes: [operation],
        extensions: { code: "QUERY_TOO_MANY_ALIASES" },
      }),
    );
  }
  return { errors, cost: Math.max(1, m.cost) };
}

/**
 * The limits as a validation rule, for documents checked without a request (the REST routes' at
 * start): a page size given as a variable counts as the default. Requests are held to them by
 * `guardRequest`, with their variables, before anything else reads the document.
 */
export function queryLimitsRule(variables: Record<string, unknown> = {}): ValidationRule {
  return (context: ValidationContext) => ({
    OperationDefinition(node: OperationDefinitionNode) {
      for (const error of sizeOf(context.getSchema(), context.getDocument(), node, variables).errors) context.reportError(error);
    },
  });
}
