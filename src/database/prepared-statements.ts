import { CountingClient } from "./statement-count";

/**
 * Statements sent as named prepared statements. PostgreSQL parses an unnamed statement anew each
 * time and plans it each time; a named one is parsed once per connection and, once its plan proves
 * as good for any parameters (after five runs), not planned again. Unnamed, planning was a fifth
 * of the statements' time under the bench's mixed load and a third at a few calls a second, more
 * than running them for most.
 *
 * A statement is named from the second time the process sees its text (one-off texts, such as a
 * list of a given length, are never prepared) and kept prepared on at most `MOST_PER_CONNECTION`
 * statements per connection: the hot ones are seen first, and the server keeps each one's parse
 * tree for as long as the connection lives.
 */
const MOST_PER_CONNECTION = 100;
/** Texts the process tells apart: past this, a text it has not seen yet stays unnamed. */
const MOST_TEXTS = 1000;

/** Per text: seen once (1), or its name. */
const names = new Map<string, number | string>();
let named = 0;

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (typeof known === "string") return known;
  if (known === undefined) {
    if (names.size < MOST_TEXTS) names.set(text, 1);
    return undefined;
  }
  const name = `wf_${++named}`;
  names.set(text, name);
  return name;
}

/**
 * A `pg` client (the pool's `Client` option) that sends parameterized statements as named prepared
 * statements. Not behind a pooler in transaction mode that cannot follow them (PgBouncer before
 * 1.21, or with `max_prepared_statements = 0`): DATABASE_PREPARED_STATEMENTS=off there.
 */
export class PreparingClient extends CountingClient {
  /** Statements this connection has prepared. */
  private readonly prepared = new Set<string>();

  // pg's own overloads: only a text with its values is named, everything else passes as it came.
  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    if (typeof text === "string" && Array.isArray(values) && callback === undefined) {
      const name = nameOf(text);
      if (name && (this.prepared.has(name) || this.prepared.size < MOST_PER_CONNECTION)) {
        this.prepared.add(name);
        return (super.query as (...a: unknown[]) => never)({ name, text, values });
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
