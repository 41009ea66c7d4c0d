import type { EntityManager } from "typeorm";

/**
 * Runs reads that do not depend on each other at once where each may take a connection of its own
 * (a manager outside a transaction, which reads from the pool; inside a unit of work's before-commit
 * hooks the data source's lent runner takes them in turn), and one after another on a transaction's
 * own connection, which answers one statement at a time. A request then waits for the slowest read,
 * not for the sum of them, and comes back to its event loop once.
 */
export async function readTogether<T extends unknown[]>(
  manager: Pick<EntityManager, "queryRunner">,
  ...reads: { [K in keyof T]: () => Promise<T[K]> }
): Promise<T> {
  if (!manager.queryRunner) return (await Promise.all(reads.map((read) => read()))) as T;
  const answers: unknown[] = [];
  for (const read of reads) answers.push(await read());
  return answers as T;
}
