import { UuidIndex } from "../../src/modules/timesheets/export/uuid-index";

/** A shift's line as the export reads it: UUIDs at fixed places, other fields after. */
const line = (...ids: string[]) => `${ids.join(",")},2026-03-02 09:00:00+00`;

/** Three staff members' UUIDs, for names Ana, Ben and Cy in that order. */
const CASES: [string, string[]][] = [
  [
    "finds each value by the UUID written at a place of a line",
    ["0a1b2c3d-0000-4000-8000-000000000001", "f9e8d7c6-0000-4000-8000-000000000002", "12345678-0000-4000-8000-000000000003"],
  ],
  // Seven digits make a key: these share their first seven.
  [
    "tells apart UUIDs that share their first digits, by later ones",
    ["abcdef01-0000-4000-8000-100000000001", "abcdef02-0000-4000-8000-200000000002", "abcdef0f-1111-4000-8000-300000000003"],
  ],
  // The same first seven digits and the same last twelve: only the middle groups differ.
  [
    "tells apart UUIDs that share the digits of every place a key is read",
    ["abcdef01-0000-4000-8000-123456789abc", "abcdef02-0000-4000-8000-123456789abc", "abcdef03-1111-4000-8000-123456789abc"],
  ],
];

describe("the export's index of names by the UUIDs in a shift's text", () => {
  it.each(CASES)("%s", (_, ids) => {
    const names = new Map(ids.map((id, i) => [id, ["Ana", "Ben", "Cy"][i]]));
    const made: string[] = [];
    const index = new UuidIndex(names.keys(), (id) => {
      made.push(id);
      return names.get(id)!;
    });
    // Each written second in a line, after another one.
    expect(ids.map((id, i) => index.at(line(ids[(i + 1) % ids.length], id), 37))).toEqual(["Ana", "Ben", "Cy"]);
    // Again, written first: the same answers, and none made twice.
    expect(ids.map((id) => index.at(line(id), 0))).toEqual(["Ana", "Ben", "Cy"]);
    expect(made.sort()).toEqual([...ids].sort());
  });
});
