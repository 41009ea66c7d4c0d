import "reflect-metadata";
import { loadConfig } from "../config";
import { migrate, openDatabase } from "../database/data-source";

async function main(): Promise<void> {
  const db = await openDatabase(loadConfig());
  try {
    const applied = await migrate(db);
    console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date");
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
