import { formatLocal, utcOffsetMinutes } from "../../src/common/time";
import { IANAZone } from "luxon";
import { localTime, utcTimeAt, zoneOffsetMinutes } from "../../src/common/local-time";

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
      const near = year.flatMap((ms, i) =>
        i > 0 && utcOffsetMinutes(new Date(ms), zone) !== utcOffsetMinutes(new Date(year[i - 1]), zone)
          ? Array.from({ length: 240 }, (_, k) => ms - 2 * 3_600_000 + k * 30_000)
          : [],
      );
      const instants = [...year, ...near, ...far].map((ms) => new Date(ms));
      // Twice each: written, then read from what was kept.
      for (let pass = 0; pass < 2; pass++) {
        const wrong = instants.filter((t) => localTime(t, zone) !== formatLocal(t, zone) || zoneOffsetMinutes(t, zone) !== utcOffsetMinutes(t, zone));
        expect(wrong.map((t) => `${zone} ${t.toISOString()}: ${localTime(t, zone)} vs ${formatLocal(t, zone)}`)).toEqual([]);
        expect(instants.filter((t) => utcTimeAt(t.getTime()) !== t.toISOString())).toEqual([]);
      }
    }
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
