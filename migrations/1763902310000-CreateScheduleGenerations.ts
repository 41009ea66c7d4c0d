import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Schedule generations: a request to fill a location's date range with drafts, run off the request
 * path by whichever service process claims it. A claim is a lease (`claimed_by`, renewed through
 * `lease_expires_at` while the search runs): a generation whose process died is claimed again once
 * its lease runs out. Drafts a generation wrote keep its id.
 */
export class CreateScheduleGenerations1763902310000 implements MigrationInterface {
  name = "CreateScheduleGenerations1763902310000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE schedule_generations (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id      uuid NOT NULL,
        status           text NOT NULL DEFAULT 'QUEUED',
        request          jsonb NOT NULL,
        progress         jsonb,
        result           jsonb,
        error            text,
        cancel_requested boolean NOT NULL DEFAULT false,
        claimed_by       text,
        lease_expires_at timestamptz,
        attempts         integer NOT NULL DEFAULT 0,
        started_at       timestamptz,
        finished_at      timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_schedule_generations_org_id UNIQUE (organization_id, id),
        CONSTRAINT ck_schedule_generations_status CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
        CONSTRAINT fk_schedule_generations_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ix_schedule_generations_location ON schedule_generations (organization_id, location_id, created_at);
      -- What the claiming processes look through: only unfinished generations, oldest first.
      CREATE INDEX ix_schedule_generations_unfinished ON schedule_generations (created_at) WHERE status IN ('QUEUED', 'RUNNING');
      SELECT audit_table('schedule_generations');

      ALTER TABLE schedule_drafts ADD COLUMN generation_id uuid,
        ADD CONSTRAINT fk_schedule_drafts_generation FOREIGN KEY (organization_id, generation_id)
          REFERENCES schedule_generations (organization_id, id) ON DELETE SET NULL (generation_id);
      CREATE INDEX ix_schedule_drafts_generation ON schedule_drafts (organization_id, generation_id) WHERE generation_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE schedule_drafts DROP COLUMN generation_id;
      DROP TABLE schedule_generations;
    `);
  }
}
