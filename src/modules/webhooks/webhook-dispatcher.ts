import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { Logger } from "pino";
import { Webhook } from "standardwebhooks";
import { EntityManager } from "typeorm";
import { ServiceDeps } from "../../common/services";
import { EventService, PING_EVENT_TYPE } from "../events";
import { isPublicAddress, publicOnlyLookup } from "./webhook-targets";
import { storableText } from "../../common/validation";
import {
  Claimed,
  anyDeliveryDue,
  claimDeliveries,
  clearFailing,
  disableGone,
  disableLongFailing,
  markFailing,
  OutcomeRecord,
  recordOutcomes,
  releaseClaims,
  Target,
  targetRows,
} from "./webhook.store";

/** The start of a receiver's answer that is kept with the delivery. */
const RESPONSE_KEPT_BYTES = 4096;
const LONGEST_RETRY_AFTER_MS = 24 * 3_600_000;

interface Outcome extends OutcomeRecord {
  endpointId: string;
  /** The receiver answered 410 Gone: the endpoint is disabled. */
  gone: boolean;
  /** The endpoint was failing when the delivery was claimed. */
  wasFailing: boolean;
}

interface Answer {
  statusCode: number;
  retryAfter: string | undefined;
  body: string;
}

/** Seconds or an HTTP date, as Retry-After allows; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - now.getTime();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), LONGEST_RETRY_AFTER_MS) : undefined;
}

/**
 * Sends queued deliveries, in every service process. Work is claimed in PostgreSQL with
 * `FOR UPDATE SKIP LOCKED`: a claim counts the attempt and moves the delivery's due time one
 * lease ahead, in one statement, so no two processes make the same attempt; an attempt whose
 * process dies is made again when its lease ends. Each endpoint has a share of the in-flight
 * attempts, so a slow receiver holds up only its own deliveries.
 *
 * Claims run ahead of sending: up to twice an endpoint's share is held (in flight or next in
 * line), so an attempt that ends starts the next at once instead of waiting for a claim's round
 * trips, and the next claim is made while the held ones are still being sent.
 */
export class WebhookDispatcher {
  /** Per endpoint: attempts claimed and not yet done (in flight or next in line). */
  private readonly held = new Map<string, number>();
  /** Per endpoint: attempts in flight, and the claimed ones waiting for a place. */
  private readonly sending = new Map<string, { inFlight: number; next: { delivery: Claimed & { token: string }; start: () => void }[] }>();
  private total = 0;
  /** Signers by secret: decoding a secret for each attempt cost as much as signing. */
  private readonly signers = new Map<string, Webhook>();
  /** Endpoints this process marked failing since their deliveries were claimed. */
  private readonly markedFailing = new Set<string>();
  private readonly outcomes: Outcome[] = [];
  private flushing: Promise<void> | undefined;
  private claiming = false;
  private again = false;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private readonly sends = new Set<Promise<void>>();
  private readonly agents = {
    "http:": new http.Agent({ keepAlive: true }),
    "https:": new https.Agent({ keepAlive: true }),
  };

  constructor(
    private readonly deps: ServiceDeps,
    private readonly events: EventService,
    private readonly logger: Logger,
  ) {}

  private get settings() {
    return this.deps.config.webhooks;
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.settings.pollMs).unref();
    this.wake();
  }

  /** Looks for due work now (called when an event is committed). */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    void this.claimAndSend()
      .catch((err) => this.logger.error({ err }, "webhook delivery: claiming failed"))
      .finally(() => {
        this.claiming = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Stops claiming, waits for the attempts in flight and records their outcomes. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    while (this.claiming) await new Promise((r) => setTimeout(r, 10));
    // Attempts claimed but not started are handed back at once, not left to wait for their lease.
    const unstarted = [...this.sending.values()].flatMap((lane) => lane.next.splice(0).map((n) => n.delivery));
    if (unstarted.length) {
      await this.deps.unitOfWork.run((manager) => releaseClaims(manager, unstarted));
    }
    while (this.sends.size) await Promise.race([...this.sends, new Promise((r) => setTimeout(r, 10))]);
    await this.flushing;
    await this.flush();
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  private async claimAndSend(): Promise<void> {
    if (!(await anyDeliveryDue(this.deps.db, this.deps.clock.now()))) return;
    for (;;) {
      const room = 2 * this.settings.concurrency - this.total;
      if (room <= 0 || this.stopped) return;
      const claimed = await this.claim(room);
      if (!claimed.length) return;
      const [events, targets] = await Promise.all([this.loadEvents(claimed), this.loadTargets(claimed)]);
      for (const delivery of claimed) {
        this.total += 1;
        const endpoint = delivery.endpoint_id;
        this.held.set(endpoint, (this.held.get(endpoint) ?? 0) + 1);
        this.enqueue(endpoint, delivery, () => {
          const send = this.attempt(delivery, events, targets.get(endpoint)).finally(() => {
            this.sends.delete(send);
            this.total -= 1;
            const left = this.held.get(endpoint)! - 1;
            if (left) this.held.set(endpoint, left);
            else this.held.delete(endpoint);
            this.done(endpoint);
            this.scheduleFlush();
            // Claiming again once the line ahead is down to one share costs one claim per many attempts, not one each.
            if (this.total <= this.settings.concurrency || left <= this.settings.perEndpointConcurrency) this.wake();
          });
          this.sends.add(send);
        });
      }
    }
  }

  /** Starts `start` now if the endpoint has a place in flight, else when one frees. */
  private enqueue(endpoint: string, delivery: Claimed & { token: string }, start: () => void): void {
    let lane = this.sending.get(endpoint);
    if (!lane) this.sending.set(endpoint, (lane = { inFlight: 0, next: [] }));
    if (lane.inFlight < this.settings.perEndpointConcurrency) {
      lane.inFlight += 1;
      start();
    } else {
      lane.next.push({ delivery, start });
    }
  }

  private done(endpoint: string): void {
    const lane = this.sending.get(endpoint)!;
    const next = lane.next.shift();
    if (next) return next.start();
    lane.inFlight -= 1;
    if (!lane.inFlight) this.sending.delete(endpoint);
  }

  private async claim(room: number): Promise<(Claimed & { token: string })[]> {
    const now = this.deps.clock.now();
    const busy = [...this.held];
    // Outcomes are recorded only under the token of their claim: after a lease ran out and another process claimed the delivery, a late outcome changes nothing.
    const token = randomUUID();
    const rows = await this.deps.unitOfWork.run((manager) =>
      claimDeliveries(manager, now, room, new Date(now.getTime() + this.settings.leaseMs), token, 2 * this.settings.perEndpointConcurrency, busy),
    );
    return rows.map((r) => ({ ...r, token }));
  }

  private async loadEvents(claimed: Claimed[]): Promise<Map<string, string>> {
    const ids = [...new Set(claimed.map((c) => c.event_id).filter((id): id is string => id !== null))];
    const events = ids.length ? await this.events.forDelivery(ids) : [];
    return new Map(events.map((e) => [e.id, JSON.stringify(e)]));
  }

  private async loadTargets(claimed: Claimed[]): Promise<Map<string, Target>> {
    const rows = await targetRows(this.deps.db, [...new Set(claimed.map((c) => c.endpoint_id))], this.deps.clock.now());
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async attempt(delivery: Claimed & { token: string }, events: Map<string, string>, target: Target | undefined): Promise<void> {
    const startedAt = this.deps.clock.now();
    const started = performance.now();
    const msgId = delivery.event_id ?? delivery.id;
    const payload =
      delivery.event_id === null
        ? JSON.stringify({
            id: delivery.id,
            type: PING_EVENT_TYPE,
            occurredAt: startedAt,
            organizationId: delivery.organization_id,
            data: { object: { endpointId: delivery.endpoint_id } },
          })
        : events.get(delivery.event_id);
    let answer: Answer | undefined;
    let error: string | null = null;
    if (!target || payload === undefined) {
      error = "The endpoint or the event no longer exists";
    } else {
      try {
        answer = await this.post(target, msgId, payload);
      } catch (err) {
        error = storableText((err as Error).message);
      }
    }
    this.outcomes.push({ ...this.judge(delivery, startedAt, Math.round(performance.now() - started), answer, error), wasFailing: target?.failing ?? false });
  }

  /** What an attempt's answer means for its delivery. */
  private judge(
    delivery: Claimed & { token: string },
    at: Date,
    durationMs: number,
    answer: Answer | undefined,
    error: string | null,
  ): Omit<Outcome, "wasFailing"> {
    // A receiver's answer is kept as text the database can store (invalid UTF-8 was decoded to U+FFFD; NUL is not storable).
    const response = answer ? storableText(answer.body) : null;
    const base = { id: delivery.id, token: delivery.token, endpointId: delivery.endpoint_id, at, durationMs, statusCode: answer?.statusCode ?? null, response };
    const code = answer?.statusCode ?? 0;
    if (code >= 200 && code < 300) return { ...base, status: "delivered", nextAttemptAt: at, error: null, gone: false };
    const reason = error ?? `The receiver answered ${code}`;
    if (code === 410) return { ...base, status: "failed", nextAttemptAt: at, error: reason, gone: true };
    const delays = this.settings.retryDelaysMs;
    if (delivery.attempts > delays.length) return { ...base, status: "failed", nextAttemptAt: at, error: reason, gone: false };
    const asked = code === 429 || code === 503 ? retryAfterMs(answer?.retryAfter, at) : undefined;
    const delay = asked ?? delays[delivery.attempts - 1] * (0.8 + Math.random() * 0.4);
    return { ...base, status: "pending", nextAttemptAt: new Date(at.getTime() + delay), error: reason, gone: false };
  }

  private signer(secret: string): Webhook {
    let signer = this.signers.get(secret);
    if (!signer) {
      // Rotated secrets fall out of use: the cache is emptied rather than kept forever.
      if (this.signers.size >= 1000) this.signers.clear();
      this.signers.set(secret, (signer = new Webhook(secret)));
    }
    return signer;
  }

  /** One POST as Standard Webhooks says: no redirect followed, a public address only (unless allowed), the answer's start kept. */
  private post(target: Target, msgId: string, payload: string): Promise<Answer> {
    const url = new URL(target.url);
    const allowPrivate = this.settings.allowPrivateTargets;
    const protocol = url.protocol as "http:" | "https:";
    if (!(protocol === "https:" || (allowPrivate && protocol === "http:"))) return Promise.reject(new Error("The endpoint's URL is not https"));
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (!allowPrivate && isIP(host) && !isPublicAddress(host)) return Promise.reject(new Error(`${host} is not a public address`));
    // The signature's time is the wall clock's: receivers compare it with theirs to refuse replays.
    const sentAt = new Date();
    const signature = (target.secrets ?? []).map((s) => this.signer(s).sign(msgId, sentAt, payload)).join(" ");
    const transport = protocol === "https:" ? https : http;
    return new Promise<Answer>((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method: "POST",
          agent: this.agents[protocol],
          lookup: allowPrivate ? undefined : (publicOnlyLookup as never),
          signal: AbortSignal.timeout(this.settings.timeoutMs),
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(payload),
            "user-agent": "workforce-webhooks/1",
            "webhook-id": msgId,
            "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
            "webhook-signature": signature,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on("data", (chunk: Buffer) => {
            if (kept < RESPONSE_KEPT_BYTES) {
              chunks.push(chunk);
              kept += chunk.length;
            }
          });
          res.on("end", () =>
            resolve({
              statusCode: res.statusCode ?? 0,
              retryAfter: res.headers["retry-after"],
              body: Buffer.concat(chunks).subarray(0, RESPONSE_KEPT_BYTES).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", (err) =>
        reject(err.name === "AbortError" || err.name === "TimeoutError" ? new Error(`No answer within ${this.settings.timeoutMs} ms`) : err),
      );
      req.end(payload);
    });
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.flush())
      .catch((err) => this.logger.error({ err }, "webhook delivery: recording outcomes failed"))
      .finally(() => {
        this.flushing = undefined;
        if (this.outcomes.length) this.scheduleFlush();
      });
  }

  /**
   * Records the outcomes gathered so far in a few statements (only for attempts whose lease is still
   * theirs). Should the batch be refused, each outcome is recorded alone: one bad row must not send
   * every other organization's deliveries again.
   */
  private async flush(): Promise<void> {
    const batch = this.outcomes.splice(0);
    if (!batch.length) return;
    try {
      await this.record(batch);
    } catch (err) {
      if (batch.length === 1) throw err;
      this.logger.warn({ err, outcomes: batch.length }, "webhook delivery: a batch of outcomes was refused; recording them one by one");
      for (const outcome of batch) {
        await this.record([outcome]).catch((error) => this.logger.error({ err: error, delivery: outcome.id }, "webhook delivery: recording an outcome failed"));
      }
    }
  }

  private async record(batch: Outcome[]): Promise<void> {
    const now = this.deps.clock.now();
    const healthy = new Set(batch.filter((o) => o.status === "delivered").map((o) => o.endpointId));
    // Only an endpoint that was failing has anything to clear.
    const recovered = [
      ...new Set(batch.filter((o) => o.status === "delivered" && (o.wasFailing || this.markedFailing.has(o.endpointId))).map((o) => o.endpointId)),
    ];
    for (const id of recovered) this.markedFailing.delete(id);
    const failing = [...new Set(batch.filter((o) => o.status !== "delivered" && !healthy.has(o.endpointId)).map((o) => o.endpointId))];
    const gone = [...new Set(batch.filter((o) => o.gone).map((o) => o.endpointId))];
    const record = async (m: EntityManager) => {
      // Endpoints first, then their deliveries: the order in which deleting an endpoint locks them.
      if (recovered.length) await clearFailing(m, recovered);
      if (failing.length) {
        await markFailing(m, failing, now);
        for (const id of failing) this.markedFailing.add(id);
        await disableLongFailing(m, failing, now, new Date(now.getTime() - this.settings.disableAfterMs));
      }
      if (gone.length) await disableGone(m, gone, now);
      await recordOutcomes(m, batch);
    };
    // The endpoints' state changes with the outcomes or not at all.
    await this.deps.unitOfWork.run(record);
  }
}
