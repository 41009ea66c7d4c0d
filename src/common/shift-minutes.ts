/** The rules that turn a shift's times into minutes; shared by lists, exports and reports. */

export interface ShiftMinutes {
  duration: number;
  totalPaidBreaks: number;
  totalUnpaidBreaks: number;
  payableDuration: number;
}

const MINUTE_MS = 60_000;

/** A break in epoch milliseconds: start, end (null while it runs), paid; anything after is ignored. */
export type BreakSpan = readonly [start: number, end: number | null, paid: boolean, ...rest: unknown[]];

/**
 * Minutes of a shift, in epoch milliseconds: an open shift (and an open break) runs up to `now`;
 * breaks count only the part inside the shift, so a break left outside by a shortened shift counts nothing.
 */
export function spanMinutes(startMs: number, endMs: number | null, breaks: readonly BreakSpan[], nowMs: number): ShiftMinutes {
  const until = Math.max(startMs, endMs ?? nowMs);
  let paidMs = 0;
  let unpaidMs = 0;
  for (const [breakStart, breakEnd, paid] of breaks) {
    const clippedStart = Math.max(startMs, breakStart);
    const clippedEnd = Math.min(until, breakEnd ?? nowMs);
    if (clippedEnd <= clippedStart) continue;
    if (paid) paidMs += clippedEnd - clippedStart;
    else unpaidMs += clippedEnd - clippedStart;
  }
  return minutesOf(startMs, until, paidMs, unpaidMs);
}

/**
 * The one rule turning clocked time into paid minutes: to the nearest minute, half a minute up (as
 * most payroll systems do), so a shift of 95 min 45 s counts 96 minutes and one of 95 min 29 s 95.
 */
function wholeMinutes(ms: number): number {
  return Math.round(ms / MINUTE_MS);
}

/**
 * Minutes of a shift that ran from `startMs` to `untilMs` with `paidMs` and `unpaidMs` of breaks
 * inside it. Each total is rounded to whole minutes after adding up, and only unpaid breaks are not
 * payable, so payable minutes are always the shown duration less the shown unpaid breaks.
 */
function minutesOf(startMs: number, untilMs: number, paidMs: number, unpaidMs: number): ShiftMinutes {
  const duration = wholeMinutes(untilMs - startMs);
  const totalUnpaidBreaks = wholeMinutes(unpaidMs);
  return {
    duration,
    totalPaidBreaks: wholeMinutes(paidMs),
    totalUnpaidBreaks,
    payableDuration: Math.max(0, duration - totalUnpaidBreaks),
  };
}

/**
 * Minutes of an ended shift from the break totals the database keeps with it (`paid_break_ms`,
 * `unpaid_break_ms`: its breaks clipped by the same rule as `spanMinutes`).
 */
export function endedShiftMinutes(startMs: number, endMs: number, paidMs: number, unpaidMs: number): ShiftMinutes {
  return minutesOf(startMs, Math.max(startMs, endMs), paidMs, unpaidMs);
}

/** Minutes as decimal hours, rounded to two decimals. */
export function minutesToHours(minutes: number): number {
  return Math.round((minutes / 60) * 100) / 100;
}
