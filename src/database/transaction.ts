import { DataSource, EntityManager } from "typeorm";

const RETRYABLE = new Set(["40001", "40P01"]);

function sqlState(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.driverError?.code ?? e?.code;
}

/**
 * Runs `work` in one transaction, retrying it when PostgreSQL reports a serialization failure or
 * a deadlock (the whole unit is re-run, so it must not have side effects outside the database).
 */
export async function inTransaction<T>(
  db: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  isolation: "READ COMMITTED" | "REPEATABLE READ" | "SERIALIZABLE" = "READ COMMITTED",
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(isolation, work);
    } catch (error) {
      if (attempt >= 5 || !RETRYABLE.has(sqlState(error) ?? "")) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
  }
}
