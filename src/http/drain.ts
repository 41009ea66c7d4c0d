import http from "node:http";
import net from "node:net";

/** How long a connection accepted just before shutdown has to deliver its request. */
const ACCEPTED_GRACE_MS = 300;

/**
 * Stops an HTTP server gracefully: no new connections, every request already sent is answered,
 * then the connections close. (http.Server#close would also drop connections that were accepted
 * but whose request had not been read yet, resetting those clients.)
 */
export async function drainHttpServer(server: http.Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  // Answers from now on ask keep-alive clients to open a new connection elsewhere.
  server.on("request", (_req, res: http.ServerResponse) => res.setHeader("Connection", "close"));
  net.Server.prototype.close.call(server);
  await new Promise((resolve) => setTimeout(resolve, ACCEPTED_GRACE_MS));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
  }
}
