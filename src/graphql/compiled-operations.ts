import type { GatewayInterface } from "@apollo/server-gateway-interface";
import { DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema, isEnumType, Kind, OperationDefinitionNode, OperationTypeNode, printSchema } from "graphql";
import { getVariableValues } from "graphql/execution/values";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import type { RequestContext } from "./context";

export type OperationRunner = (context: RequestContext, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;

const checkedSchemas = new WeakSet<GraphQLSchema>();

/**
 * Leaves of the built-in scalars and enums go into the answer as the resolvers give them: graphql-jit's
 * per-leaf serialization allocates an error path and locations for every value (tens of thousands in
 * an eligibility answer), which was most of running a compiled list. The resolvers' values are already
 * what the schema says (the OpenAPI check of every answer in the tests holds them to it); an enum
 * would not be, unless each of its values is its own name, which this refuses at start.
 */
function requireEnumsNamedByTheirValues(schema: GraphQLSchema): void {
  if (checkedSchemas.has(schema)) return;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type)) continue;
    const renamed = type.getValues().find((v) => v.value !== v.name);
    if (renamed) throw new Error(`enum ${type.name}: the value of ${renamed.name} is ${String(renamed.value)}, not its name`);
  }
  checkedSchemas.add(schema);
}

/** The operation of a document that a request names (its only one when it names none). */
function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  return document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
}

/**
 * An operation compiled to a function by graphql-jit: the same resolvers, guards and loaders,
 * with far less work per field than graphql-js's interpreter (lists of hundreds of shifts are most
 * of the cost of a request). Variables are checked by graphql-js first, so a refused input is
 * described in graphql-js's words everywhere.
 */
export function compileOperation(schema: GraphQLSchema, document: DocumentNode, operationName?: string): OperationRunner {
  requireEnumsNamedByTheirValues(schema);
  const compiled = compileQuery(schema, document, operationName, { disableLeafSerialization: true });
  if (!isCompiledQuery(compiled)) throw new Error(`could not compile: ${compiled.errors?.map((e) => e.message).join("; ")}`);
  const definitions = operationOf(document, operationName)?.variableDefinitions ?? [];
  return async (context, variables) => {
    const checked = getVariableValues(schema, definitions, variables, { maxErrors: 20 });
    if (checked.errors) return { errors: checked.errors };
    const result = await compiled.query(undefined, context, variables);
    if (!result.errors) return result;
    // graphql-jit's errors take `extensions` from their cause only; Apollo's formatting needs one on every error.
    const errors = result.errors.map((e) => (e.extensions ? e : new GraphQLError(e.message, { path: e.path, originalError: e.originalError ?? undefined })));
    return { ...result, errors };
  };
}

const CACHED_OPERATIONS = 1000;

/** Answers about the schema kept, the most recently asked, and the longest operation text whose answer is kept. */
const KEPT_SCHEMA_ANSWERS = 8;
const KEPT_SCHEMA_TEXT = 10_000;

/** A query of introspection fields alone (`__schema`, `__type`, `__typename` at its root): its answer depends on the schema only. */
function asksOnlyAboutTheSchema(operation: OperationDefinitionNode | undefined): boolean {
  return (
    operation?.operation === OperationTypeNode.QUERY &&
    operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith("__"))
  );
}

/** Values by key, the `most` recently used kept. */
class RecentlyUsed<V> {
  private readonly kept = new Map<string, V>();

  constructor(private readonly most: number) {}

  get(key: string): V | undefined {
    const value = this.kept.get(key);
    if (value !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.kept.delete(key);
    if (this.kept.size >= this.most) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, value);
  }
}

/** A compiled operation, and whether its answers may be kept (a short text about the schema alone). */
interface CompiledOperation {
  run: OperationRunner;
  keepsAnswers: boolean;
}

/**
 * Apollo Server's executor, through its gateway interface: each distinct operation text is compiled
 * once (the most recent CACHED_OPERATIONS are kept) and run compiled, from the tree the request
 * guard parsed and validated (graphql/documents.ts).
 *
 * An answer about the schema alone is kept and given again (the most recent KEPT_SCHEMA_ANSWERS, of
 * short texts): the schema never changes while the process runs, and GraphiQL asks the same
 * introspection query at every load, a 390 KB answer that took 25–40 ms to run on a 2-core machine.
 */
export function compiledExecutor(schema: GraphQLSchema): GatewayInterface {
  const operations = new RecentlyUsed<CompiledOperation>(CACHED_OPERATIONS);
  const schemaAnswers = new RecentlyUsed<ExecutionResult>(KEPT_SCHEMA_ANSWERS);
  const operationFor = (source: string, document: DocumentNode, operationName: string | null | undefined): CompiledOperation => {
    const key = `${operationName ?? ""}\n${source}`;
    let operation = operations.get(key);
    if (!operation) {
      const keepsAnswers = source.length <= KEPT_SCHEMA_TEXT && asksOnlyAboutTheSchema(operationOf(document, operationName));
      operation = { run: compileOperation(schema, document, operationName ?? undefined), keepsAnswers };
      operations.set(key, operation);
    }
    return operation;
  };
  return {
    async load() {
      return {
        executor: async (request) => {
          const variables = request.request.variables ?? {};
          const operation = operationFor(request.source, request.document, request.operationName);
          if (!operation.keepsAnswers) return operation.run(request.context as RequestContext, variables) as never;
          const key = `${request.operationName ?? ""}\n${JSON.stringify(variables)}\n${request.source}`;
          const kept = schemaAnswers.get(key);
          if (kept) return kept as never;
          const answer = await operation.run(request.context as RequestContext, variables);
          if (!answer.errors) schemaAnswers.set(key, answer);
          return answer as never;
        },
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async stop() {},
  };
}
