import { AsyncResource } from "node:async_hooks";
import { createHistogram, RecordableHistogram } from "node:perf_hooks";
import type { NextFunction, Request, Response } from "express";

/** The requests a process is working on and those waiting for their turn; and how many it has turned away, since it started, for waiting too long. */
export interface RequestsInProcess {
  running: number;
  waiting: number;
  turnedAway: number;
}

/** Milliseconds: the median, the 99th percentile and the most, over every request since the process started. */
export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

/**
 * Where the API's requests spent their time in this process: before their turn (from arrival:
 * reading the body, authentication, rate limits), waiting in line, and at work (from their turn to
 * their answer handed to the socket). A slow answer is one of the three.
 */
export interface RequestTimes {
  beforeTurnMs: Percentiles;
  inLineMs: Percentiles;
  atWorkMs: Percentiles;
}

/** When the request reached the service (`performance.now()`), kept by the first middleware so the line can tell the time before it. */
export const ARRIVED_AT = "arrivedAt";

export interface WaitLimit {
  /** How long a request may wait in line; 0: as long as it takes. */
  ms: number;
  /** Answers a request that waited `ms` without its turn (503 with Retry-After). */
  turnAway: (req: Request, res: Response) => void;
}

/**
 * Lets at most `limit` requests of this process run at once; the others wait their turn, in the
 * order they came, before any of their work starts (so holding no transaction and no lock).
 *
 * Why: a request's transaction sends its statements one after another, one turn of the event loop
 * each, and every turn waits behind the synchronous work of all the other requests in the process
 * (a 280-shift list, a 2,200-person eligibility answer). Let in all at once under a burst, a write
 * of 25 statements waits behind 25 rounds of everyone's work and holds its row locks meanwhile; let
 * in a few at a time, it runs almost as fast as on an idle process, and the waiting is done once,
 * in line, before it starts. `limit` 0 lets every request in at once.
 *
 * The line is bounded by time: a request still waiting after `waitLimit.ms` is answered at once
 * (`turnAway`) and leaves it, so that under a flood a caller learns to come back rather than waits
 * without end, and the line cannot grow faster than it is served for longer than that.
 */
export function requestAdmission(
  limit: number,
  waitLimit: WaitLimit = { ms: 0, turnAway: () => undefined },
): {
  admit: (req: Request, res: Response, next: NextFunction) => void;
  /** Gives up the request's place before its answer is whole: for an answer streamed at its reader's pace. */
  leave: (res: Response) => void;
  inProcess: () => RequestsInProcess;
  times: () => RequestTimes;
} {
  const most = limit > 0 ? limit : Infinity;
  let running = 0;
  let waiting = 0;
  let turnedAway = 0;
  /** Requests in line, the first at `head` (a moving head: no array shift per admission); true when one starts. */
  let line: (() => boolean)[] = [];
  let head = 0;
  /** A request left its place: it goes to the first in line whose client is still there. */
  const admitNext = () => {
    while (head < line.length) {
      const next = line[head++];
      if (head >= 1024 && head * 2 >= line.length) {
        line = line.slice(head);
        head = 0;
      }
      if (next()) return;
    }
    line = [];
    head = 0;
    running--;
  };
  /** How each request at work gives up its place. */
  const places = new WeakMap<Response, () => void>();
  // In microseconds: a histogram holds whole numbers, at least 1.
  const beforeTurn = createHistogram();
  const inLine = createHistogram();
  const atWork = createHistogram();
  const record = (histogram: RecordableHistogram, fromMs: number) => histogram.record(Math.max(1, Math.round((performance.now() - fromMs) * 1000)));
  const percentiles = (histogram: RecordableHistogram): Percentiles => {
    const ms = (us: number) => (histogram.count ? Math.round(us / 100) / 10 : 0);
    return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
  };
  /**
   * Starts a request's work. Its place is given up once its answer is whole (`prefinish`: handed
   * to the socket, whether or not the client reads it, so a client that does not read holds none),
   * when its client leaves, or by `leave`.
   */
  const enter = (res: Response, next: NextFunction) => {
    const turn = performance.now();
    // Once called, nothing holds it any more: neither event, nor `places`.
    const leave = () => {
      record(atWork, turn);
      res.off("prefinish", leave);
      res.off("close", leave);
      places.delete(res);
      admitNext();
    };
    res.once("prefinish", leave);
    res.once("close", leave);
    places.set(res, leave);
    next();
  };
  return {
    admit: (req, res, next) => {
      const queued = performance.now();
      record(beforeTurn, (res.locals[ARRIVED_AT] as number | undefined) ?? queued);
      if (running < most) {
        running++;
        record(inLine, queued);
        return enter(res, next);
      }
      waiting++;
      let gone = false;
      let tooLong: NodeJS.Timeout | undefined;
      // A client that leaves, or is turned away, while in line is passed over when its turn comes.
      const leave = () => {
        gone = true;
        waiting--;
        clearTimeout(tooLong);
      };
      res.once("close", leave);
      if (waitLimit.ms > 0) {
        tooLong = setTimeout(() => {
          res.off("close", leave);
          leave();
          turnedAway++;
          waitLimit.turnAway(req, res);
        }, waitLimit.ms);
      }
      // Let in when another call ends, it runs in its own asynchronous context (its actor, its request id), not that call's.
      line.push(
        AsyncResource.bind(() => {
          if (gone) return false;
          res.off("close", leave);
          clearTimeout(tooLong);
          waiting--;
          record(inLine, queued);
          enter(res, next);
          return true;
        }),
      );
    },
    leave: (res) => places.get(res)?.(),
    inProcess: () => ({ running, waiting, turnedAway }),
    times: () => ({ beforeTurnMs: percentiles(beforeTurn), inLineMs: percentiles(inLine), atWorkMs: percentiles(atWork) }),
  };
}
