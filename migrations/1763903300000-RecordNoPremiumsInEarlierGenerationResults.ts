import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A generation's result now counts the premiums its shifts owe as a part of the objective
 * (`premiums`). Results recorded before owed none (premiums were either forbidden or not counted):
 * they say so, so that every stored result answers the part.
 */
export class RecordNoPremiumsInEarlierGenerationResults1763903300000 implements MigrationInterface {
  name = "RecordNoPremiumsInEarlierGenerationResults1763903300000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE schedule_generations SET result = result || '{"premiums": 0}'::jsonb WHERE result IS NOT NULL AND NOT result ? 'premiums'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE schedule_generations SET result = result - 'premiums' WHERE result IS NOT NULL`);
  }
}
