import fc from "fast-check";
import { defaultTimestamptzParser as parsePostgresDate, parseTimestamptz, readCommonTimestamptz, timestamptzMs } from "../../src/database/timestamp-parser";

/** PostgreSQL's text of an instant in a session zone `offsetSeconds` east of UTC, with `fraction` digits of microseconds. */
function postgresText(ms: number, micros: number, offsetSeconds: number): string {
  const wall = new Date(ms + offsetSeconds * 1000).toISOString();
  const fraction = micros ? `.${String(micros).padStart(6, "0").replace(/0+$/, "")}` : "";
  const abs = Math.abs(offsetSeconds);
  const hh = String(Math.floor(abs / 3600)).padStart(2, "0");
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, "0");
  const ss = String(abs % 60).padStart(2, "0");
  const offset = `${offsetSeconds < 0 ? "-" : "+"}${hh}${mm !== "00" || ss !== "00" ? `:${mm}` : ""}${ss !== "00" ? `:${ss}` : ""}`;
  return `${wall.slice(0, 10)} ${wall.slice(11, 19)}${fraction}${offset}`;
}

/** PostgreSQL's text of instants of years 1000–9999, whole seconds with any fraction, in any session zone. */
const postgresTexts = fc
  .tuple(
    fc.integer({ min: Date.UTC(1000, 0, 2), max: Date.UTC(9999, 11, 30) }),
    fc.integer({ min: 0, max: 999_999 }),
    fc.integer({ min: -15 * 3600, max: 15 * 3600 }),
  )
  .map(([ms, micros, offset]) => postgresText(Math.floor(ms / 1000) * 1000, micros, offset));

describe("reading timestamptz text from PostgreSQL", () => {
  it("reads what the default parser reads, to the millisecond", () => {
    const fixed = [
      "2026-03-02 14:00:00+00",
      "2026-03-29 01:59:59.999999+01",
      "2026-03-02 09:00:00.5-05",
      "2026-03-02 19:30:00+05:30",
      "1890-06-01 12:00:00-04:56:02",
      "2026-12-31 23:59:59.123+14",
      "2000-02-29 00:00:00.000001-12",
    ];
    for (const text of fixed) expect([text, readCommonTimestamptz(text)?.getTime()]).toEqual([text, (parsePostgresDate(text) as Date).getTime()]);
    fc.assert(
      fc.property(postgresTexts, (text) => {
        const expected = (parsePostgresDate(text) as Date).getTime();
        expect([text, readCommonTimestamptz(text)?.getTime()]).toEqual([text, expected]);
      }),
      { numRuns: 5000 },
    );
  });

  it("reads a timestamp that is one field of a longer text, in place", () => {
    fc.assert(
      fc.property(postgresTexts, (text) => {
        const row = `id,${text},${text}:00,next`;
        const expected = (parsePostgresDate(text) as Date).getTime();
        expect([text, timestamptzMs(row, 3, 3 + text.length)]).toEqual([text, expected]);
      }),
      { numRuns: 2000 },
    );
    // A field the fast path does not read goes to the default parser, cut out.
    const row = "x,0099-01-01 00:00:00+00 BC,y";
    expect(timestamptzMs(row, 2, row.length - 2)).toBe((parsePostgresDate("0099-01-01 00:00:00+00 BC") as Date).getTime());
    expect(() => timestamptzMs("x,infinity,y", 2, 10)).toThrow("Not an instant: infinity");
  });

  it("leaves infinity, BC, early years and anything unusual to the default parser", () => {
    for (const text of ["infinity", "-infinity", "0044-03-15 12:00:00+00 BC", "0099-01-01 00:00:00+00", "12026-01-01 00:00:00+00", "2026-03-02 14:00:00"]) {
      expect([text, readCommonTimestamptz(text), parseTimestamptz(text)]).toEqual([text, undefined, parsePostgresDate(text)]);
    }
  });
});
