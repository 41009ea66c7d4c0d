import { AsyncLocalStorage } from "node:async_hooks";
import { HeaderMap } from "@apollo/server";
import type { ApolloServer, BaseContext } from "@apollo/server";
import type { Request, Response } from "express";
import type { FormattedExecutionResult } from "graphql";
import { jsonBytes, sendJsonBytes } from "../common/json-bytes";

/** The bytes of the answer Apollo made for the request being served, by answerInPieces. */
const answers = new AsyncLocalStorage<{ bytes?: Buffer[] }>();

/** Apollo ends an answer with a newline (for a terminal's prompt); so does this. */
const NEWLINE = Buffer.from("\n");

/**
 * Apollo's stringifyResult. Inside the endpoint below, the answer is made into bytes in pieces
 * (src/common/json-bytes.ts) and kept for the endpoint to send: one string of a list's answer
 * (hundreds of KB) costs three to four times as much to make into bytes (docs/scaling.md).
 */
export function answerInPieces(result: FormattedExecutionResult): string {
  const answer = answers.getStore();
  if (!answer) return `${JSON.stringify(result)}\n`;
  answer.bytes = [...jsonBytes(result), NEWLINE];
  return "";
}

/** The GraphQL endpoint: Apollo's express integration, but sending the pieces answerInPieces kept rather than the answer's string. */
export function graphqlEndpoint<Context extends BaseContext>(apollo: ApolloServer<Context>, context: (res: Response) => Context) {
  return async (req: Request, res: Response): Promise<void> => {
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
    }
    const query = req.originalUrl.indexOf("?");
    const search = query < 0 ? "" : req.originalUrl.slice(query);
    const answer: { bytes?: Buffer[] } = {};
    const response = await answers.run(answer, () =>
      apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search, body: req.body },
        context: async () => context(res),
      }),
    );
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = response.status ?? 200;
    if (response.body.kind === "complete") {
      sendJsonBytes(res, answer.bytes ?? [Buffer.from(response.body.string)], req.method === "HEAD");
      return;
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}
