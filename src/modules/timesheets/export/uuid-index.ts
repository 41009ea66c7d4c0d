/** A UUID's length in text. */
const UUID_LENGTH = 36;

/** Hex digits of a UUID that make its key: 28 bits stay a small integer in V8, the cheapest key of a Map. */
const KEY_DIGITS = 7;

/** Where in a UUID (8-4-4-4-12 hex digits) a key may be read: runs of KEY_DIGITS with no dash, the first that tells the index's UUIDs apart. */
const KEY_PLACES = [0, 24, 29];

/** The number of the KEY_DIGITS hex digits at `at` of `text`, in lowercase as PostgreSQL writes them. */
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
 * where seven of their digits at one place tell all of them apart, those digits alone find one, read
 * in place; where no place does, the whole UUID is cut out and looked up. Cutting out and hashing
 * each shift's three UUIDs was a tenth of a long export's time.
 */
export class UuidIndex<V> {
  /** By the number read at `keyPlace`, or by the whole UUID. */
  private readonly values = new Map<number | string, V>();
  /** Where the key is read in a UUID; -1: nowhere, the whole UUID is the key. */
  private readonly keyPlace: number;

  constructor(
    ids: Iterable<string>,
    private readonly create: (id: string) => V,
  ) {
    const all = [...ids];
    this.keyPlace = KEY_PLACES.find((place) => new Set(all.map((id) => keyAt(id, place))).size === all.length) ?? -1;
  }

  /** The value of the UUID written at `at` of `text` (one of the `ids`). */
  at(text: string, at: number): V {
    const key = this.keyPlace >= 0 ? keyAt(text, at + this.keyPlace) : text.slice(at, at + UUID_LENGTH);
    let value = this.values.get(key);
    if (value === undefined) this.values.set(key, (value = this.create(text.slice(at, at + UUID_LENGTH))));
    return value;
  }
}
