import { GraphQLDateTimeISO } from "graphql-scalars";
import { DateTimeISO } from "../../src/graphql/date-time-scalar";

describe("the DateTimeISO scalar", () => {
  it("writes a Date as Date#toISOString does, at any instant a Date holds", () => {
    const instants = [
      0,
      Date.UTC(2026, 2, 8, 7, 0, 0, 5),
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(999, 11, 31, 23, 59, 59, 999),
      Date.UTC(1000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -8.64e15,
      8.64e15,
    ];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 7 * 3_600_000 + 61_017) instants.push(ms);
    const wrong = instants.map((ms) => new Date(ms)).filter((t) => DateTimeISO.serialize(t) !== t.toISOString());
    expect(wrong.map((t) => t.toISOString())).toEqual([]);
  });

  it("treats everything else as graphql-scalars does: strings and numbers read, an invalid Date refused", () => {
    for (const value of ["2026-03-02T09:00:00.000Z", "2026-03-02T09:00:00+01:00", 1_767_600_000_000]) {
      expect(DateTimeISO.serialize(value)).toBe(GraphQLDateTimeISO.serialize(value));
    }
    expect(() => DateTimeISO.serialize(new Date(NaN))).toThrow("DateTime cannot represent an invalid Date instance");
    expect(() => DateTimeISO.serialize("yesterday")).toThrow(/invalid date-time-string/);
    expect(DateTimeISO.parseValue("2026-03-02T09:00:00Z")).toEqual(new Date("2026-03-02T09:00:00Z"));
  });
});
