import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Shift templates and coverage requirements.
 *
 * A template is a location's recurring shift (role, local start and end time of day, planned
 * breaks, and the templates a person may not work the day after it); schedule entries and drafts
 * made from one keep its id (set to null when the template goes). A coverage requirement says how
 * many people a template needs on a day, and what each one missing or too many costs the generator.
 */
export class CreateShiftTemplatesAndCoverage1763902300000 implements MigrationInterface {
  name = "CreateShiftTemplatesAndCoverage1763902300000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE shift_templates (
        id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id       uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id           uuid NOT NULL,
        role_id               uuid NOT NULL,
        name                  text NOT NULL,
        start_time            text NOT NULL,
        end_time              text NOT NULL,
        breaks                jsonb NOT NULL DEFAULT '[]',
        cannot_be_followed_by uuid[] NOT NULL DEFAULT '{}',
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_shift_templates_org_id UNIQUE (organization_id, id),
        CONSTRAINT ck_shift_templates_times CHECK (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND start_time <> end_time),
        CONSTRAINT fk_shift_templates_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT fk_shift_templates_role FOREIGN KEY (organization_id, role_id)
          REFERENCES roles (organization_id, id)
      );
      CREATE INDEX ix_shift_templates_location ON shift_templates (organization_id, location_id, name, id);
      CREATE INDEX ix_shift_templates_role ON shift_templates (organization_id, role_id);
      SELECT audit_table('shift_templates');
      SELECT record_events_of('shift_templates', 'shift_template');

      CREATE TABLE coverage_requirements (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id     uuid NOT NULL,
        template_id     uuid NOT NULL,
        day             date NOT NULL,
        required_count  integer NOT NULL,
        under_weight    integer NOT NULL DEFAULT 1,
        over_weight     integer NOT NULL DEFAULT 0,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_coverage_requirements_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_coverage_requirements_day_template UNIQUE (organization_id, location_id, day, template_id),
        CONSTRAINT ck_coverage_requirements_count CHECK (required_count BETWEEN 0 AND 1000),
        CONSTRAINT ck_coverage_requirements_weights CHECK (under_weight BETWEEN 0 AND 100000 AND over_weight BETWEEN 0 AND 100000),
        CONSTRAINT fk_coverage_requirements_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT fk_coverage_requirements_template FOREIGN KEY (organization_id, template_id)
          REFERENCES shift_templates (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ix_coverage_requirements_template ON coverage_requirements (organization_id, template_id);
      SELECT audit_table('coverage_requirements');

      ALTER TABLE schedule_entries ADD COLUMN template_id uuid,
        ADD CONSTRAINT fk_schedule_entries_template FOREIGN KEY (organization_id, template_id)
          REFERENCES shift_templates (organization_id, id) ON DELETE SET NULL (template_id);
      CREATE INDEX ix_schedule_entries_template ON schedule_entries (organization_id, template_id) WHERE template_id IS NOT NULL;

      ALTER TABLE schedule_drafts ADD COLUMN template_id uuid,
        ADD CONSTRAINT fk_schedule_drafts_template FOREIGN KEY (organization_id, template_id)
          REFERENCES shift_templates (organization_id, id) ON DELETE SET NULL (template_id);
      CREATE INDEX ix_schedule_drafts_template ON schedule_drafts (organization_id, template_id) WHERE template_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE schedule_drafts DROP COLUMN template_id;
      ALTER TABLE schedule_entries DROP COLUMN template_id;
      DROP TABLE coverage_requirements;
      DROP TABLE shift_templates;
    `);
  }
}
