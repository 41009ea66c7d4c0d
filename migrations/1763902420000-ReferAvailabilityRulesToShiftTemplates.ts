import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An availability rule's template must be one of its organization's shift templates. A preference
 * narrowed to a template means nothing once the template goes, so it goes with it (as the
 * template's coverage requirements do); a widened preference would say what the worker never said.
 */
export class ReferAvailabilityRulesToShiftTemplates1763902420000 implements MigrationInterface {
  name = "ReferAvailabilityRulesToShiftTemplates1763902420000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM availability_rules r
       WHERE template_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM shift_templates t WHERE t.organization_id = r.organization_id AND t.id = r.template_id);
      ALTER TABLE availability_rules ADD CONSTRAINT fk_availability_rules_template FOREIGN KEY (organization_id, template_id)
        REFERENCES shift_templates (organization_id, id) ON DELETE CASCADE;
      -- Deleting a template finds the rules that name it.
      CREATE INDEX ix_availability_rules_template ON availability_rules (organization_id, template_id) WHERE template_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX ix_availability_rules_template;
      ALTER TABLE availability_rules DROP CONSTRAINT fk_availability_rules_template;
    `);
  }
}
