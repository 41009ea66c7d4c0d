import type { QueryRunner } from "typeorm";
import { readTogether } from "../../src/database/read-together";

/** Reads that record how many of them were running at once. */
function overlapping() {
  let running = 0;
  let most = 0;
  const read = (answer: string) => async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setImmediate(resolve));
    running--;
    return answer;
  };
  return { read, most: () => most };
}

describe("reading together", () => {
  it("runs independent reads at once outside a transaction, and answers them in order", async () => {
    const o = overlapping();
    expect(await readTogether({ queryRunner: undefined }, o.read("a"), o.read("b"), o.read("c"))).toEqual(["a", "b", "c"]);
    expect(o.most()).toBe(3);
  });

  it("runs them one after another on a transaction's connection, which answers one statement at a time", async () => {
    const o = overlapping();
    expect(await readTogether({ queryRunner: {} as QueryRunner }, o.read("a"), o.read("b"))).toEqual(["a", "b"]);
    expect(o.most()).toBe(1);
  });
});
