/**
 * A long read as one row of text: each row's fields (ids, numbers; never a space or a comma) joined
 * by a space, the rows by a comma, with `string_agg(concat_ws(' ', …), ',' ORDER BY …)`. Two thousand
 * rows cost the service far more CPU to parse than one text of them, on the event loop that every
 * other call of the process waits behind (docs/availability.md has the figures). Null, as
 * `string_agg` answers for no row: no rows.
 */
export function unpackRows(packed: string | null): string[][] {
  return packed ? packed.split(",").map((row) => row.split(" ")) : [];
}
