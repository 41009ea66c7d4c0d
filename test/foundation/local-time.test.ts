import { formatLocal, utcOffsetMinutes } from "../../src/common/time";
import { DateTime, IANAZone } from "luxon";
import { localDate, localTime, utcTimeAt, wallClockInstant, zoneOffsetMinutes } from "../../src/common/local-time";
import { addDays } from "../../src/common/time";

const ZONES = [
  "America/New_York",
  "America/St_Johns", // half-hour offset and DST
  "Australia/Lord_Howe", // a DST shift of half an hour
  "Asia/Kathmandu",
  "Asia/Kolkata",
  "Europe/London",
  "Pacific/Chatham",
  "Pacific/Kiritimati",
  "America/Sao_Paulo",
  "UTC",
  "Etc/UTC",
];

describe("local times of shifts", () => {
  it("read exactly as formatLocal and utcOffsetMinutes, across DST transitions and odd offsets", () => {
    const year: number[] = [];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 31 * 60_000 + 7_013) year.push(ms);
    const far = [Date.UTC(1890, 5, 1, 12), Date.UTC(1950, 0, 1), Date.UTC(2100, 6, 1, 3, 30), Date.UTC(12000, 0, 1)];
    for (const zone of ZONES) {
      // Every half minute for two hours around each transition of the year.
      const offsets = year.map((ms) => utcOffsetMinutes(new Date(ms), zone));
      const near = year.flatMap((ms, i) =>
        i > 0 && offsets[i] !== offsets[i - 1] ? Array.from({ length: 240 }, (_, k) => ms - 2 * 3_600_000 + k * 30_000) : [],
      );
      const instants = [...year, ...near, ...far].map((ms) => new Date(ms));
      // luxon's answers, worked out once: they are the slow part.
      const expected = instants.map((t) => ({ local: formatLocal(t, zone), offset: utcOffsetMinutes(t, zone) }));
      // Twice each: written, then read from what was kept.
      for (let pass = 0; pass < 2; pass++) {
        const wrong = instants.filter((t, i) => localTime(t, zone) !== expected[i].local || zoneOffsetMinutes(t, zone) !== expected[i].offset);
        expect(wrong.map((t) => `${zone} ${t.toISOString()}: ${localTime(t, zone)} vs ${formatLocal(t, zone)}`)).toEqual([]);
        expect(instants.filter((t) => utcTimeAt(t.getTime()) !== t.toISOString())).toEqual([]);
      }
    }
  });

  it("reads wall times of local days as luxon does: skipped ones move forward, repeated ones keep the day's first offset", () => {
    // Days of a year and around: those with a change of offset near them every quarter hour, the others at a few times.
    const days = Array.from({ length: 400 }, (_, i) => addDays("2025-12-15", i));
    const extremes = ["0999-12-31", "1000-01-01", "1900-03-01", "9999-12-30", "9999-12-31"];
    const everyQuarter = Array.from({ length: 96 }, (_, i) => i * 15);
    const offsetAtStart = (day: string, zone: string) => utcOffsetMinutes(DateTime.fromISO(day, { zone }).toJSDate(), zone);
    for (const zone of ZONES) {
      const wrong: string[] = [];
      for (const day of [...days, ...extremes]) {
        const changing = [-1, 0, 1].some((d) => offsetAtStart(addDays(day, d), zone) !== offsetAtStart(addDays(day, d + 1), zone));
        for (const minutes of changing || extremes.includes(day) ? everyQuarter : [0, 95, 510, 1035, 1425]) {
          const luxon = DateTime.fromISO(day, { zone })
            .set({ hour: Math.floor(minutes / 60), minute: minutes % 60 })
            .toJSDate();
          const ours = wallClockInstant(day, minutes, zone);
          if (ours.getTime() !== luxon.getTime()) wrong.push(`${zone} ${day} +${minutes} min: ${ours.toISOString()} vs ${luxon.toISOString()}`);
          const luxonDay = DateTime.fromJSDate(ours, { zone }).toISODate();
          if (localDate(ours, zone) !== luxonDay) wrong.push(`${zone} day of ${ours.toISOString()}: ${localDate(ours, zone)} vs ${luxonDay}`);
        }
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    }
    // New York's spring change skips 02:00–03:00 (02:30 is 03:30 EDT); its fall change repeats 01:00–02:00 (01:30 is still EDT).
    expect(wallClockInstant("2026-03-08", 150, "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z");
    expect(wallClockInstant("2026-11-01", 90, "America/New_York").toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  it("asks the zone for its offset once per hour boundary, not twice per hour", () => {
    const asked = jest.spyOn(IANAZone.prototype, "offset");
    try {
      // A year no other test reads: two days of shifts starting every 20 minutes.
      const first = Date.UTC(2031, 4, 12);
      for (let ms = first; ms < first + 48 * 3_600_000; ms += 20 * 60_000) localTime(new Date(ms), "America/Chicago");
      // 48 hours have 49 boundaries.
      expect(asked).toHaveBeenCalledTimes(49);
    } finally {
      asked.mockRestore();
    }
  });
});
