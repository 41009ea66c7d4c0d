/**
 * SQL that a row's span [start, end) overlaps the window [from, until) (each argument an SQL
 * expression), written so that an index on `tstzrange(start, end, '[)')` finds the rows: the
 * no-overlap exclusion constraints keep one (time off's, shifts'). `start < until AND end > from`
 * alone bounds the index of starts on one side only, so it read every earlier row, a worker's whole
 * history, to find the few that reach into the window. The window's range is closed so that a
 * window of one instant still finds the spans around it; the comparisons then keep the exact test.
 */
export function spanOverlaps(start: string, end: string, from: string, until: string): string {
  return `tstzrange(${start}, ${end}, '[)') && tstzrange(${from}, ${until}, '[]') AND ${start} < ${until} AND ${end} > ${from}`;
}
