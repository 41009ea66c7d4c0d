import { DateTime } from "luxon";
import { escapeText, foldLine, ZoneRules } from "../../src/modules/calendar-feeds/icalendar";

describe("iCalendar text", () => {
  it("folds a line at 75 octets, never inside a UTF-8 character, and unfolds to what it was", () => {
    const line = `DESCRIPTION:${"Zoë’s café — ".repeat(20)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(" "))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join("")).toBe(line);
    expect(foldLine("SUMMARY:short")).toBe("SUMMARY:short");
  });

  it("escapes backslashes, semicolons, commas and line breaks, and drops other control characters", () => {
    expect(escapeText("a\\b;c,d\r\ne\nf\u0007")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });
});

describe("a zone's rules over a feed's window", () => {
  const from = new Date("2026-02-01T00:00:00Z");
  const to = new Date("2027-03-01T00:00:00Z");

  it.each(["America/New_York", "Europe/London", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kolkata", "America/Santiago", "UTC"])(
    "gives the time-zone database's offset at every hour of the window in %s",
    (zone) => {
      const rules = ZoneRules.of(zone, from, to);
      const wrong: string[] = [];
      for (let ms = from.getTime() - 30 * 86_400_000; ms < to.getTime(); ms += 3_600_000 + 17 * 60_000) {
        const expected = DateTime.fromMillis(ms, { zone }).offset;
        if (rules.offsetAt(new Date(ms)) !== expected) wrong.push(new Date(ms).toISOString());
      }
      expect(wrong).toEqual([]);
    },
  );

  it("lists New York's changes as observances with their onsets in the wall time before the change", () => {
    const lines = ZoneRules.of("America/New_York", from, to).vtimezone();
    const text = lines.join("\n");
    expect(text).toContain("BEGIN:DAYLIGHT\nDTSTART:20260308T020000\nTZOFFSETFROM:-0500\nTZOFFSETTO:-0400\nEND:DAYLIGHT");
    expect(text).toContain("BEGIN:STANDARD\nDTSTART:20261101T020000\nTZOFFSETFROM:-0400\nTZOFFSETTO:-0500\nEND:STANDARD");
    expect(ZoneRules.of("Asia/Kolkata", from, to).vtimezone()).toEqual([
      "BEGIN:VTIMEZONE",
      "TZID:Asia/Kolkata",
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      "TZOFFSETFROM:+0530",
      "TZOFFSETTO:+0530",
      "END:STANDARD",
      "END:VTIMEZONE",
    ]);
  });
});
