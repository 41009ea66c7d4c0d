import { UuidIndex } from "../../src/modules/timesheets/export/uuid-index";

/** A shift's line as the export reads it: UUIDs at fixed places, other fields after. */
const line = (...ids: string[]) => `${ids.join(",")},2026-03-02 09:00:00+00`;

/** Looks each of `names` up where `line` writes it second, and answers what it found. */
function found(names: Map<string, string>): string[] {
  const made: string[] = [];
  const index = new UuidIndex(names.keys(), (id) => {
    made.push(id);
    return names.get(id)!;
  });
  const ids = [...names.keys()];
  const answers = ids.map((id, i) => index.at(line(ids[(i + 1) % ids.length], id), 37));
  // Again, now that each is made: the same answers, and none made twice.
  expect(ids.map((id) => index.at(line(id), 0))).toEqual(answers);
  expect(made.sort()).toEqual([...ids].sort());
  return answers;
}

describe("the export's index of names by the UUIDs in a shift's text", () => {
  it("finds each value by the UUID written at a place of a line", () => {
    const names = new Map([
      ["0a1b2c3d-0000-4000-8000-000000000001", "Ana"],
      ["f9e8d7c6-0000-4000-8000-000000000002", "Ben"],
      ["12345678-0000-4000-8000-000000000003", "Cy"],
    ]);
    expect(found(names)).toEqual(["Ana", "Ben", "Cy"]);
  });

  it("tells apart UUIDs that share their first digits, by later ones", () => {
    // Seven digits make a key: these share their first seven.
    const names = new Map([
      ["abcdef01-0000-4000-8000-100000000001", "Ana"],
      ["abcdef02-0000-4000-8000-200000000002", "Ben"],
      ["abcdef0f-1111-4000-8000-300000000003", "Cy"],
    ]);
    expect(found(names)).toEqual(["Ana", "Ben", "Cy"]);
  });

  it("tells apart UUIDs that share the digits of every place a key is read", () => {
    // The same first seven digits and the same last twelve: only the middle groups differ.
    const names = new Map([
      ["abcdef01-0000-4000-8000-123456789abc", "Ana"],
      ["abcdef02-0000-4000-8000-123456789abc", "Ben"],
      ["abcdef03-1111-4000-8000-123456789abc", "Cy"],
    ]);
    expect(found(names)).toEqual(["Ana", "Ben", "Cy"]);
  });
});
