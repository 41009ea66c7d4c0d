import type { Request, RequestHandler, Response } from "express";
import { GraphQLSchema } from "graphql";
import { getVariableValues } from "graphql/execution/values";
import { toClientError } from "../errors/client-error";
import type { RequestContext } from "../graphql/context";
import { Loaders } from "../loaders/loaders";
import { compileGuardedOperation, GuardedOperation, requireOperationPermission, runGuardedOperation } from "../rest/shim";
import { DEFAULT_PAGE } from "./pages";
import type { McpTool, RunOperation } from "./tool";

const INSTRUCTIONS =
  "Workforce scheduling and time off for one organization, as the token's holder may see and change it. " +
  "Lists answer pages (pass nextCursor back as cursor). Tools that write take dryRun, true unless set to false: " +
  "describe the dry run's answer to the person and ask before calling again with dryRun false.";

/**
 * The protocol's SDK and the tools, loaded by the first call to /mcp: the SDK's message schemas
 * and the tools' (zod) take about 12 MB of heap, and a tenth of a second of every start, that a
 * service nobody asks over MCP would spend for nothing.
 */
const loadSdk = () =>
  Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("./tool"),
    import("./tools"),
  ]);
let sdk: ReturnType<typeof loadSdk> | undefined;

/** The version of the tool set a client sees: raised when a tool changes incompatibly. */
const TOOLS_VERSION = "1.0.0";

export interface McpOptions {
  schema: GraphQLSchema;
  onInternalError: (req: Request, error: unknown) => void;
}

/** The points a call to /mcp spends of its caller's rate limit: a tool call its page size, anything else 1. */
export function mcpCallCost(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.reduce((sum: number, message) => {
    const m = message as { method?: unknown; params?: { arguments?: { limit?: unknown } } } | null;
    if (m?.method !== "tools/call") return sum + 1;
    const limit = m.params?.arguments?.limit;
    return sum + (typeof limit === "number" && Number.isFinite(limit) ? Math.max(1, Math.ceil(limit)) : DEFAULT_PAGE);
  }, 0);
}

/** A tool's arguments left out are variables not given (not null). */
const given = (variables: Record<string, unknown>) => Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined));

/** A tool's operations run for one caller: the guard of each root field, then GraphQL's own execution. */
function operationsFor(schema: GraphQLSchema, operations: Record<string, GuardedOperation>, context: RequestContext): RunOperation {
  const guarded = (name: string) => {
    const op = operations[name];
    requireOperationPermission(op, context);
    return op;
  };
  const run = (name: string, variables: Record<string, unknown>) =>
    runGuardedOperation(guarded(name), { ...context, loaders: new Loaders() }, given(variables));
  return Object.assign(run, {
    async check(name: string, variables: Record<string, unknown>) {
      const checked = getVariableValues(schema, [...guarded(name).variables.values()], given(variables), { maxErrors: 20 });
      if (checked.errors?.length) throw checked.errors[0];
    },
  });
}

/** Whether the caller may run the tool's deciding operation: a tool the caller could not use is not offered. */
function offered(tool: McpTool, operations: Record<string, GuardedOperation>, context: RequestContext): boolean {
  try {
    requireOperationPermission(operations[tool.offeredWith], context);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Model Context Protocol server at /mcp (Streamable HTTP, stateless: every POST stands alone,
 * so any service process answers it). Behind the same bearer tokens, rate limits and audit as
 * GraphQL and REST (the request's context, made before this runs); each tool runs the service's
 * own GraphQL operations with the token's actor.
 */
export function mcpHandler(options: McpOptions): RequestHandler {
  const { schema } = options;
  /** Each tool's operations, parsed at the first call (compiled at their own first run: compileGuardedOperation). */
  let compiled: Map<string, Record<string, GuardedOperation>> | undefined;
  const operationsOf = (tools: McpTool[]) =>
    new Map(
      tools.map((tool) => [
        tool.name,
        Object.fromEntries(Object.entries(tool.operations).map(([name, text]) => [name, compileGuardedOperation(schema, text, `MCP tool ${tool.name}`)])),
      ]),
    );
  return async (req: Request, res: Response) => {
    const context = res.locals.context as RequestContext;
    if (!context.actor) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="workforce"');
      return res.status(401).json({ error: { code: "UNAUTHENTICATED", message: "A bearer token is required", details: [], requestId: req.id } });
    }
    if (req.method !== "POST") {
      // Stateless: no stream to resume (GET) and no session to end (DELETE).
      res.setHeader("Allow", "POST");
      return res.status(405).json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: POST a JSON-RPC message" }, id: null });
    }
    const [{ McpServer }, { StreamableHTTPServerTransport }, { annotationsOf }, { MCP_TOOLS }] = await (sdk ??= loadSdk());
    compiled ??= operationsOf(MCP_TOOLS);
    const server = new McpServer({ name: "workforce", version: TOOLS_VERSION }, { instructions: INSTRUCTIONS });
    for (const tool of MCP_TOOLS) {
      const operations = compiled.get(tool.name)!;
      if (!offered(tool, operations, context)) continue;
      server.registerTool(
        tool.name,
        { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: annotationsOf(tool) },
        async (args) => {
          try {
            const answer = await tool.run(operationsFor(schema, operations, context), args as never);
            return { structuredContent: answer, content: [{ type: "text" as const, text: JSON.stringify(answer) }] };
          } catch (error) {
            const refused = toClientError(error as Error);
            if (refused.internal) options.onInternalError(req, error);
            const body = { error: { code: refused.code, message: refused.message, details: refused.details, requestId: req.id } };
            return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }] };
          }
        },
      );
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
}
