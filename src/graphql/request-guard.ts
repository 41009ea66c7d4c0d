import { ASTNode, DocumentNode, getOperationAST, GraphQLError, GraphQLSchema, Kind, Lexer, OperationDefinitionNode, Source, TokenKind, visit } from "graphql";
import { isStorableText, unstorableText } from "../common/validation";
import { AppError, badRequest, unauthenticated } from "../errors/app-error";
import type { GraphQLDocuments } from "./documents";
import { sizeOf } from "./limits";

/**
 * Tokens a document may have. The largest real one, GraphiQL's introspection query, has about 300;
 * a document over the limit is refused while it is being read, before any of it is kept.
 */
export const MAX_TOKENS = 5_000;

/** What an anonymous request may call: creating an organization (with the platform key) and exchanging a key for a token. */
const PUBLIC_OPERATIONS = ["createOrganization", "exchangeToken"];
const PUBLIC_FIELDS = new Set([...PUBLIC_OPERATIONS, "__typename"]);
/**
 * The longest text an anonymous caller may send. Its only operations, the public ones, take a few
 * hundred characters; a longer text is refused unread, so a flood of large documents without a
 * token costs no parse (a parse keeps every token's position for the errors, and weighs on the heap).
 */
export const PUBLIC_DOCUMENT_MAX_LENGTH = 8 * 1024;

/** The largest body an anonymous request is read from: a public document at its longest, every character escaped, and its variables. */
export const PUBLIC_BODY_MAX_BYTES = 64 * 1024;

/** A request refused before Apollo sees it: the HTTP status and the GraphQL errors to answer. */
export class RefusedRequest extends Error {
  constructor(
    readonly status: number,
    readonly errors: GraphQLError[],
  ) {
    super(errors[0]?.message);
  }
}

const refusal = (error: AppError, nodes?: ASTNode[]) =>
  new RefusedRequest(error.status, [new GraphQLError(error.message, { nodes, extensions: { code: error.code, details: error.details } })]);

/** The argument or input field a string literal belongs to, for the error's details. */
function fieldOf(ancestors: readonly (ASTNode | readonly ASTNode[])[]): string {
  const names: string[] = [];
  for (const node of ancestors) {
    if ("kind" in node && (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD)) names.push(node.name.value);
  }
  return names.join(".") || "query";
}

/**
 * A parse error refused with its line and column, found in the text up to the error only:
 * graphql-js finds them by scanning the whole text, a megabyte for a document cut short early.
 */
function parseFailure(query: string, error: GraphQLError): RefusedRequest {
  const position = error.positions?.[0];
  const source = position === undefined ? undefined : new Source(query.slice(0, position + 1));
  return new RefusedRequest(400, [
    new GraphQLError(error.message, { source, positions: source ? [position!] : undefined, extensions: { code: "GRAPHQL_PARSE_FAILED", details: [] } }),
  ]);
}

/**
 * Reads the tokens of a document, keeping none, and refuses it at the first one over MAX_TOKENS:
 * a document too long is refused before any of its tree is built. Lexical errors are refused here too.
 */
function countTokens(query: string): void {
  const lexer = new Lexer(new Source(query));
  let count = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++count > MAX_TOKENS) {
        throw parseFailure(
          query,
          new GraphQLError(`Syntax Error: Document contains more that ${MAX_TOKENS} tokens. Parsing aborted.`, { positions: [token.start] }),
        );
      }
    }
  } catch (error) {
    if (error instanceof RefusedRequest) throw error;
    throw parseFailure(query, error as GraphQLError);
  }
}

/** Where a request came: HTTP runs queries and mutations, the WebSocket of the same path subscriptions. */
export type Transport = "http" | "websocket";
const RUNS: Record<Transport, { kinds: string[]; elsewhere: string }> = {
  http: { kinds: ["query", "mutation"], elsewhere: "Subscriptions run over a WebSocket at /graphql (graphql-ws), not over HTTP" },
  websocket: { kinds: ["subscription"], elsewhere: "Only subscriptions run over the WebSocket: send queries and mutations to POST /graphql" },
};

const isJsonObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A GraphQL request the guard let through: its text, its one parsed tree, the operation to run, its cost. */
export interface GuardedRequest {
  text: string;
  document: DocumentNode;
  /** Whether the tree was validated before (a text seen already); else validation is still to come. */
  validated: boolean;
  operation: OperationDefinitionNode;
  cost: number;
}

/**
 * Everything about a GraphQL request that can be refused before validation: its shape, its size
 * (tokens, then the query limits, so validation's pairwise field comparisons never meet a document
 * that would make them slow), the operation it names, what an anonymous caller may ask (which also
 * keeps introspection behind a token), and text the database could not store. The document is
 * parsed here, only the first time its text is seen (`documents` keeps it once validated), and its
 * limits are walked once: the answer carries the tree, the operation and its cost, for the rate
 * limit, validation and the executor.
 */
export function guardRequest(
  schema: GraphQLSchema,
  documents: GraphQLDocuments,
  body: unknown,
  authenticated: boolean,
  viaQueryString = false,
  transport: Transport = "http",
): GuardedRequest {
  if (Array.isArray(body)) throw refusal(badRequest("Batched operations are not supported: send one operation per request"));
  const { query, operationName, variables, extensions } = (body ?? {}) as Record<string, unknown>;
  if (typeof query !== "string") throw refusal(badRequest("The request must carry the operation text as a string in `query`"));
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") throw refusal(badRequest("`operationName` must be a string"));
  // Checked here rather than left to Apollo, whose refusal of these would carry no request id.
  for (const [name, value] of Object.entries({ variables, extensions })) {
    if (value !== undefined && value !== null && !isJsonObject(typeof value === "string" && viaQueryString ? parsedJson(value) : value)) {
      throw refusal(badRequest(`\`${name}\` must be a JSON object${viaQueryString ? " (JSON text in the query string)" : ""}`));
    }
  }
  // A public operation is short and names its field: a text that is longer or names neither cannot be one, and is refused unread.
  if (!authenticated && (query.length > PUBLIC_DOCUMENT_MAX_LENGTH || !PUBLIC_OPERATIONS.some((name) => query.includes(name)))) {
    throw refusal(unauthenticated());
  }
  let document = documents.validated(query);
  const validated = document !== undefined;
  if (!document) {
    countTokens(query);
    try {
      document = documents.parse(query, MAX_TOKENS);
    } catch (error) {
      throw parseFailure(query, error as GraphQLError);
    }
  }
  const operation = getOperationAST(document, (operationName as string | null | undefined) ?? undefined);
  if (!operation) {
    const named = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
    const message = operationName
      ? `The document has no operation named "${(operationName as string).length > 100 ? `${(operationName as string).slice(0, 100)}…` : operationName}"`
      : named === 0
        ? "The document holds no operation"
        : "The document holds several operations: name the one to run in `operationName`";
    throw refusal(badRequest(message));
  }
  if (!schema.getRootType(operation.operation)) throw refusal(badRequest(`This service has no ${operation.operation} operations`), [operation]);
  if (!RUNS[transport].kinds.includes(operation.operation)) throw refusal(badRequest(RUNS[transport].elsewhere), [operation]);
  if (
    !authenticated &&
    (operation.operation !== "mutation" || operation.selectionSet.selections.some((s) => s.kind !== Kind.FIELD || !PUBLIC_FIELDS.has(s.name.value)))
  ) {
    throw refusal(unauthenticated(), [operation]);
  }
  const given = typeof variables === "string" && viaQueryString ? parsedJson(variables) : variables;
  const size = sizeOf(schema, document, operation, typeof given === "object" && given !== null ? (given as Record<string, unknown>) : {});
  const tooLarge = size.errors;
  if (tooLarge.length)
    throw new RefusedRequest(
      400,
      tooLarge.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { ...e.extensions, details: [] } })),
    );
  // A text validated before passed this already.
  if (!validated) {
    visit(document, {
      StringValue(node, _key, parent, _path, ancestors) {
        if (!isStorableText(node.value)) throw refusal(unstorableText(fieldOf([...ancestors, parent ?? []])), [node]);
      },
    });
  }
  return { text: query, document, validated, operation, cost: size.cost };
}
