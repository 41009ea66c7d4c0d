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
} from "graphql";

export const MAX_DEPTH = 12;
export const MAX_COST = 200_000;
export const MAX_ALIASES = 50;
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

function measure(
  schema: GraphQLSchema,
  parent: GraphQLObjectType | GraphQLInterfaceType,
  selectionSet: SelectionSetNode,
  fragments: Fragments,
  variables: Record<string, unknown>,
  seen: Set<string>,
): Measure {
  let depth = 0;
  let cost = 0;
  let aliases = 0;
  for (const selection of selectionSet.selections) {
    let inner: Measure | undefined;
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) aliases++;
      const def = parent.getFields()[selection.name.value];
      if (!def) continue;
      const type = def.type as GraphQLOutputType;
      const named = getNamedType(type);
      if (selection.selectionSet && (named instanceof GraphQLObjectType || named instanceof GraphQLInterfaceType)) {
        const child = measure(schema, named, selection.selectionSet, fragments, variables, seen);
        inner = { depth: child.depth + 1, cost: multiplier(selection, type, variables) * (1 + child.cost), aliases: child.aliases };
      } else {
        inner = { depth: 1, cost: 1, aliases: 0 };
      }
    } else {
      const set = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragments[selection.name.value]?.selectionSet;
      const typeName = selection.kind === Kind.INLINE_FRAGMENT ? selection.typeCondition?.name.value : fragments[selection.name.value]?.typeCondition.name.value;
      const key = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : "";
      if (!set || (key && seen.has(key))) continue;
      const onType = (typeName ? schema.getType(typeName) : parent) as GraphQLObjectType | GraphQLInterfaceType;
      if (key) seen.add(key);
      inner = measure(schema, onType ?? parent, set, fragments, variables, seen);
      if (key) seen.delete(key);
    }
    depth = Math.max(depth, inner.depth);
    cost += inner.cost;
    aliases += inner.aliases;
  }
  return { depth, cost, aliases };
}

/**
 * Refuses, before execution, operations deeper than MAX_DEPTH, costlier than MAX_COST (each
 * field costs one, times the page size of every list above it) or with more than MAX_ALIASES
 * aliases. The refusal names the limit, so clients are not left with a timeout.
 * Variables are not known while Apollo validates, so a page size given as a variable counts as the default.
 */
export function queryLimitsRule(variables: Record<string, unknown> = {}): ValidationRule {
  return (context: ValidationContext) => {
    const fragments: Fragments = {};
    for (const def of context.getDocument().definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
    }
    return {
      OperationDefinition(node: OperationDefinitionNode) {
        const schema = context.getSchema();
        const root = node.operation === "mutation" ? schema.getMutationType() : node.operation === "subscription" ? schema.getSubscriptionType() : schema.getQueryType();
        if (!root) return;
        const m = measure(schema, root, node.selectionSet, fragments, variables, new Set());
        if (m.depth > MAX_DEPTH) {
          context.reportError(new GraphQLError(`The query is ${m.depth} levels deep; the limit is ${MAX_DEPTH}`, { nodes: [node], extensions: { code: "QUERY_TOO_DEEP" } }));
        }
        if (m.cost > MAX_COST) {
          context.reportError(new GraphQLError(`The query would cost ${m.cost} (fields times page sizes); the limit is ${MAX_COST}. Ask for smaller pages or fewer fields`, { nodes: [node], extensions: { code: "QUERY_TOO_COSTLY" } }));
        }
        if (m.aliases > MAX_ALIASES) {
          context.reportError(new GraphQLError(`The query uses ${m.aliases} aliases; the limit is ${MAX_ALIASES}`, { nodes: [node], extensions: { code: "QUERY_TOO_MANY_ALIASES" } }));
        }
      },
    };
  };
}

/**
 * What an operation costs by the measure above (fields times page sizes), with the variables it
 * is sent with: the points it spends of a rate limit. The named operation, else the first.
 */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, operationName?: string): number {
  const fragments: Fragments = {};
  let operation: OperationDefinitionNode | undefined;
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
    if (def.kind === Kind.OPERATION_DEFINITION && !operation && (!operationName || def.name?.value === operationName)) operation = def;
  }
  const root = operation?.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!operation || !root) return 1;
  const cost = (given: Record<string, unknown>) => measure(schema, root, operation.selectionSet, fragments, given, new Set()).cost;
  const withVariables = cost(variables);
  // One that queryLimitsRule (which sees no variables) refuses before it runs costs a call: the refusal says why.
  if (withVariables > MAX_COST && cost({}) > MAX_COST) return 1;
  return Math.max(1, withVariables);
}
