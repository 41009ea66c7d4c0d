/**
 * SQL that a row's span [start, end) overlaps the window [from, until) (each argument an SQL
 * expression), written so that an index on the row's range finds the rows: the no-overlap
 * exclusion constraints keep one (time off's, shifts', a worker's schedule entries'). `start < until
 * AND end > from` alone bounds an index of starts on one side only, so it read every earlier row, a
 * whole history, to find the few that reach into the window. `rowRange` is the range as the index
 * writes it: PostgreSQL matches an index by the form of its expression, and `tstzrange(a, b)` is
 * not written as `tstzrange(a, b, '[)')` though both are the same range. The window's range is
 * closed so that a window of one instant still finds the spans around it; the comparisons then keep
 * the exact test.
 */
export function spanOverlaps(start: string, end: string, from: string, until: string, rowRange = `tstzrange(${start}, ${end}, '[)')`): string {
  return `${rowRange} && tstzrange(${from}, ${until}, '[]') AND ${start} < ${until} AND ${end} > ${from}`;
}
