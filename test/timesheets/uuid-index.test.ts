import { UuidIndex } from "../../src/modules/timesheets/export/uuid-index";

/** A shift's line as the export reads it: UUIDs at fixed places, other fields after. */
const line = (...ids: string[]) => `${ids.join(",")},2026-03-02 09:00:00+00`;

describe("the export's index of names by the UUIDs in a shift's text", () => {
  it("finds each value by the UUID written at a place, making it once", () => {
    const names = new Map([
      ["0a1b2c3d-0000-4000-8000-000000000001", "Ana"],
      ["f9e8d7c6-0000-4000-8000-000000000002", "Ben"],
      ["12345678-0000-4000-8000-000000000003", "Cy"],
    ]);
    const made: string[] = [];
    const index = new UuidIndex(names.keys(), (id) => {
      made.push(id);
      return names.get(id)!;
    });
    const [a, b, c] = [...names.keys()];
    expect(index.at(line(c, a), 37)).toBe("Ana");
    expect(index.at(line(c, b), 37)).toBe("Ben");
    expect(index.at(line(a, c), 37)).toBe("Cy");
    expect(index.at(line(c), 0)).toBe("Cy");
    expect(index.at(line(b, a), 37)).toBe("Ana");
    expect(made).toEqual([a, b, c]);
  });

  it("tells apart UUIDs that share their first digits", () => {
    // The first seven hex digits make the key: these two share them.
    const names = new Map([
      ["abcdef01-0000-4000-8000-000000000001", "Ana"],
      ["abcdef02-0000-4000-8000-000000000002", "Ben"],
      ["abcdef0f-1111-4000-8000-000000000003", "Cy"],
    ]);
    const index = new UuidIndex(names.keys(), (id) => names.get(id)!);
    const [a, b, c] = [...names.keys()];
    expect(index.at(line(b, a), 37)).toBe("Ana");
    expect(index.at(line(a, b), 37)).toBe("Ben");
    expect(index.at(line(a, c), 37)).toBe("Cy");
    expect(index.at(line(c, a), 37)).toBe("Ana");
  });
});
