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
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  const definitions = operation?.variableDefinitions ?? [];
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
function asksOnlyAboutTheSchema(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  return (
    operation?.operation === OperationTypeNode.QUERY &&
    operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith("__"))
  );
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
  const cache = new Map<string, OperationRunner>();
  const schemaAnswers = new Map<string, ExecutionResult>();
  const answerAboutTheSchema = async (key: string, run: () => Promise<ExecutionResult> | ExecutionResult): Promise<ExecutionResult> => {
    let answer = schemaAnswers.get(key);
    if (answer) {
      schemaAnswers.delete(key);
    } else {
      answer = await run();
      if (answer.errors) return answer;
      if (schemaAnswers.size >= KEPT_SCHEMA_ANSWERS) schemaAnswers.delete(schemaAnswers.keys().next().value!);
    }
    schemaAnswers.set(key, answer);
    return answer;
  };
  const runnerFor = (source: string, document: DocumentNode, operationName: string | null | undefined): OperationRunner => {
    const key = `${operationName ?? ""}\n${source}`;
    let runner = cache.get(key);
    if (runner) {
      cache.delete(key);
    } else {
      runner = compileOperation(schema, document, operationName ?? undefined);
      if (cache.size >= CACHED_OPERATIONS) cache.delete(cache.keys().next().value!);
    }
    cache.set(key, runner);
    return runner;
  };
  return {
    async load() {
      return {
        executor: async (request) => {
          const variables = request.request.variables ?? {};
          const run = () => runnerFor(request.source, request.document, request.operationName)(request.context as RequestContext, variables);
          if (request.source.length > KEPT_SCHEMA_TEXT || !asksOnlyAboutTheSchema(request.document, request.operationName)) return run() as never;
          return answerAboutTheSchema(`${request.operationName ?? ""}\n${JSON.stringify(variables)}\n${request.source}`, run) as never;
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
