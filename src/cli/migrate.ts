import "reflect-metadata";
import { loadConfig } from "../config";
import { migrate, openDatabase } from "../database/data-source";

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const { applied, warning } = await migrate(db, config);
    if (warning) console.warn(warning);
    console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date");
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
