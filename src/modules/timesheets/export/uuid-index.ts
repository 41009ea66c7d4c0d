/** A UUID's length in text. */
const UUID_LENGTH = 36;

/** Hex digits of a UUID that make its key: 28 bits stay a small integer in V8, the cheapest key of a Map. */
const KEY_DIGITS = 7;

/** The number of the first KEY_DIGITS hex digits of the UUID written at `at` of `text`, in lowercase as PostgreSQL writes it. */
function keyAt(text: string, at: number): number {
  let key = 0;
  for (let i = at; i < at + KEY_DIGITS; i++) {
    const code = text.charCodeAt(i);
    key = key * 16 + (code <= 57 ? code - 48 : code - 87);
  }
  return key;
}

/**
 * Values by the UUID written at a place of a longer text (an exported shift's line), each made once
 * by `create`. Every UUID the texts hold is one of `ids` (a foreign key, read in the same snapshot):
 * where no two of those share their first digits, the digits alone find it, read in place; otherwise
 * the whole UUID is cut out and looked up. Cutting out and hashing each shift's three UUIDs was a
 * tenth of a long export's time.
 */
export class UuidIndex<V> {
  private readonly byKey = new Map<number, V>();
  private readonly byId = new Map<string, V>();
  private readonly keyed: boolean;

  constructor(
    ids: Iterable<string>,
    private readonly create: (id: string) => V,
  ) {
    const keys = new Set<number>();
    let count = 0;
    for (const id of ids) {
      keys.add(keyAt(id, 0));
      count++;
    }
    this.keyed = keys.size === count;
  }

  /** The value of the UUID written at `at` of `text` (one of the `ids`). */
  at(text: string, at: number): V {
    if (this.keyed) {
      const key = keyAt(text, at);
      let value = this.byKey.get(key);
      if (value === undefined) this.byKey.set(key, (value = this.create(text.slice(at, at + UUID_LENGTH))));
      return value;
    }
    const id = text.slice(at, at + UUID_LENGTH);
    let value = this.byId.get(id);
    if (value === undefined) this.byId.set(id, (value = this.create(id)));
    return value;
  }
}
