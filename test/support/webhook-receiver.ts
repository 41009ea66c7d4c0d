import http from "node:http";
import { AddressInfo } from "node:net";

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; sequence?: number; data: { object: Record<string, any> } };
}

/** A real HTTP receiver of webhooks on 127.0.0.1 that records what arrives and answers as told. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** The answer to the next requests: a status code and headers. */
  answer: Answer = { status: 204 };
  /** Answers of particular paths, over `answer`. */
  readonly byPath = new Map<string, Answer>();
  /** The webhook-id of every request that arrived, answered or not. */
  readonly arrivals: string[] = [];
  /** While set, requests wait for an answer until `release` (a receiver that hangs). */
  hold = false;
  private readonly held: (() => void)[] = [];

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on("request", (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        receiver.arrivals.push(String(req.headers["webhook-id"]));
        if (receiver.hold) {
          receiver.held.push(() => res.writeHead(503).end());
          return;
        }
        const body = Buffer.concat(chunks).toString("utf8");
        const { status, headers, body: answer } = receiver.byPath.get(req.url ?? "") ?? receiver.answer;
        if (status >= 200 && status < 300) receiver.received.push({ headers: req.headers as Record<string, string>, body, json: JSON.parse(body) });
        res.writeHead(status, headers).end(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /**
   * Waits until `done` holds for what arrived (no fixed sleeps: checks after each short pause). No
   * deadline of its own, which a busy machine could overrun: the test's timeout ends a hang.
   */
  async until(done: (received: Received[]) => boolean): Promise<Received[]> {
    while (!done(this.received)) await new Promise((r) => setTimeout(r, 20));
    return this.received;
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Answers the held requests with 503 and stops holding. */
  release(): void {
    this.hold = false;
    for (const answer of this.held.splice(0)) answer();
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
