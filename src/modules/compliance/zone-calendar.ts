import { formatLocal, utcOffsetMinutes } from "../../common/time";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Local days and wall times of one time zone for a check over thousands of shifts: the zone's
 * offset is looked up once per UTC hour (offsets change only on whole hours of UTC), and the rest
 * is arithmetic on it. Answers the same strings as common/time's luxon-based functions.
 */
export class ZoneCalendar {
  private readonly offsets = new Map<number, number>();

  constructor(readonly zone: string) {}

  /** Minutes east of UTC at `instant`. */
  offsetMinutes(instant: Date): number {
    const hour = Math.floor(instant.getTime() / HOUR_MS);
    let offset = this.offsets.get(hour);
    if (offset === undefined) {
      offset = utcOffsetMinutes(new Date(hour * HOUR_MS), this.zone);
      this.offsets.set(hour, offset);
    }
    return offset;
  }

  private wall(instant: Date): string {
    return new Date(instant.getTime() + this.offsetMinutes(instant) * 60_000).toISOString();
  }

  /** The calendar day (`YYYY-MM-DD`) of `instant`. */
  day(instant: Date): string {
    return this.wall(instant).slice(0, 10);
  }

  /** Local wall time with its offset: `2026-03-02T09:00:00.000-05:00`. */
  format(instant: Date): string {
    const offset = this.offsetMinutes(instant);
    // luxon spells a zero offset "Z" or "+00:00" depending on the zone: leave that case to it.
    if (offset === 0) return formatLocal(instant, this.zone);
    const abs = Math.abs(offset);
    const hhmm = `${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
    return `${this.wall(instant).slice(0, 23)}${offset < 0 ? "-" : "+"}${hhmm}`;
  }

  /** The first day of the week that holds `instant`, weeks starting on ISO weekday `weekStart` (Monday 1 … Sunday 7). */
  weekOf(instant: Date, weekStart: number): string {
    const day = Date.parse(`${this.day(instant)}T00:00:00Z`);
    const weekday = new Date(day).getUTCDay() || 7;
    return new Date(day - ((weekday - weekStart + 7) % 7) * DAY_MS).toISOString().slice(0, 10);
  }
}
