/** Items of a long list serialized at a time. */
const ITEMS_PER_PIECE = 100;

/**
 * The UTF-8 bytes of `JSON.stringify(value)`, in pieces: long lists (the value, or a property of
 * it) are serialized a hundred items at a time. One JSON.stringify of a large answer gives a rope
 * of short strings that must be flattened into one large string and then encoded into one large
 * buffer: for an 860 KB answer, 6.1 ms of CPU on average against 2.8 ms in pieces, whose strings
 * and buffers stay small (measured alone, 300 times each).
 */
export function jsonBytes(value: unknown): Buffer[] {
  const pieces: Buffer[] = [];
  const text = (json: string) => pieces.push(utf8Bytes(json));
  if (isLongList(value)) writeList(value, "", text);
  else if (isPlainObject(value) && Object.values(value).some(isLongList)) {
    let open = "{";
    for (const [key, item] of Object.entries(value)) {
      const name = `${open}${JSON.stringify(key)}:`;
      if (isLongList(item)) writeList(item, name, text);
      else {
        const json = JSON.stringify(item);
        if (json === undefined) continue;
        text(name + json);
      }
      open = ",";
    }
    text(open === "{" ? "{}" : "}");
  } else text(JSON.stringify(value) ?? "");
  return pieces;
}

/** The UTF-8 bytes of a text: ASCII (its UTF-8 length is its length) is copied as latin1, the same bytes, rather than encoded. */
function utf8Bytes(text: string): Buffer {
  return Buffer.from(text, Buffer.byteLength(text, "utf8") === text.length ? "latin1" : "utf8");
}

function writeList(list: unknown[], before: string, text: (json: string) => void): void {
  for (let i = 0; i < list.length; i += ITEMS_PER_PIECE) {
    const items = JSON.stringify(list.slice(i, i + ITEMS_PER_PIECE)).slice(1, -1);
    text(`${i === 0 ? `${before}[` : ","}${items}${i + ITEMS_PER_PIECE >= list.length ? "]" : ""}`);
  }
}

function isLongList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > ITEMS_PER_PIECE && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}
