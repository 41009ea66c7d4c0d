import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Time off: policy types, policies, each worker's place in a policy (worker policies), the ledger of
 * hours behind every balance, requests, and each organization's time-off settings.
 *
 * - A balance is never stored: it is the sum of the worker policy's ledger rows. Accruals, grants
 *   and carry-over forfeits carry a period key, unique per worker policy and kind, so an accrual
 *   run can be repeated (or run by two processes at once) without adding anything twice.
 * - A request names its worker policy through (policy_id, worker_id), so a request can only be
 *   filed against a policy the worker belongs to.
 * - A worker's pending and approved requests never overlap: an exclusion constraint refuses it.
 * - Organizations that exist already get their policy types and settings here; new ones get them
 *   from the organization seeder in the same transaction that creates them.
 */
export class CreateTimeOffPoliciesLedgerAndRequests1763900200000 implements MigrationInterface {
  name = "CreateTimeOffPoliciesLedgerAndRequests1763900200000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS btree_gist;

      CREATE TABLE time_off_policy_types (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name            text NOT NULL,
        type            text NOT NULL CHECK (type IN ('Vacation', 'Sick', 'Personal', 'Bereavement', 'Holiday', 'Unpaid', 'Other')),
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_time_off_policy_types_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_time_off_policy_types_type UNIQUE (organization_id, type)
      );

      CREATE TABLE time_off_policies (
        id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id        uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        type_id                uuid NOT NULL,
        location_id            uuid,
        name                   text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        status                 text NOT NULL DEFAULT 'Draft' CHECK (status IN ('Draft', 'Active', 'Inactive')),
        paid                   boolean NOT NULL DEFAULT true,
        units                  text NOT NULL DEFAULT 'hours' CHECK (units IN ('hours', 'days')),
        requires_approval      boolean NOT NULL DEFAULT true,
        allow_negative_balance boolean NOT NULL DEFAULT false,
        carryover_limit        numeric(12, 6) CHECK (carryover_limit >= 0),
        full_day_duration      numeric(8, 4) NOT NULL CHECK (full_day_duration > 0 AND full_day_duration <= 24),
        limit_settings         jsonb NOT NULL,
        assigned_staff_type    text CHECK (assigned_staff_type IN ('All', 'Role', 'Location', 'Staff')),
        assigned_staff_ids     uuid[] NOT NULL DEFAULT '{}',
        accruing_since         date,
        created_at             timestamptz NOT NULL DEFAULT now(),
        updated_at             timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_time_off_policies_org_id UNIQUE (organization_id, id),
        CONSTRAINT fk_time_off_policies_type FOREIGN KEY (organization_id, type_id)
          REFERENCES time_off_policy_types (organization_id, id),
        CONSTRAINT fk_time_off_policies_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id)
      );
      CREATE INDEX ix_time_off_policies_org ON time_off_policies (organization_id, status, name);
      CREATE INDEX ix_time_off_policies_type ON time_off_policies (organization_id, type_id);
      CREATE INDEX ix_time_off_policies_location ON time_off_policies (organization_id, location_id) WHERE location_id IS NOT NULL;

      -- assignment: 'default' rows follow the policy's defaultSettings; 'manual' ones were set by hand and stay as set.
      CREATE TABLE worker_policies (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        policy_id       uuid NOT NULL,
        worker_id       uuid NOT NULL,
        is_included     boolean NOT NULL DEFAULT true,
        assignment      text NOT NULL DEFAULT 'default' CHECK (assignment IN ('default', 'manual')),
        accrues_from    date NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_worker_policies_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_worker_policies_policy_worker UNIQUE (organization_id, policy_id, worker_id),
        CONSTRAINT fk_worker_policies_policy FOREIGN KEY (organization_id, policy_id)
          REFERENCES time_off_policies (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_worker_policies_worker FOREIGN KEY (organization_id, worker_id)
          REFERENCES staff_members (organization_id, id)
      );
      CREATE INDEX ix_worker_policies_worker ON worker_policies (organization_id, worker_id);

      CREATE TABLE time_off_requests (
        id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id    uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        worker_id          uuid NOT NULL,
        policy_id          uuid NOT NULL,
        location_id        uuid,
        start_time         timestamptz NOT NULL,
        end_time           timestamptz NOT NULL,
        status             text NOT NULL CHECK (status IN ('pending', 'approved', 'declined', 'cancelled')),
        note               text,
        is_all_day         boolean NOT NULL DEFAULT false,
        timezone           text NOT NULL,
        hour_configuration jsonb NOT NULL,
        total_hours        numeric(12, 6) NOT NULL CHECK (total_hours >= 0),
        submitted_at       timestamptz NOT NULL,
        submitted_by       uuid,
        decided_at         timestamptz,
        decided_by         uuid,
        decline_reason     text,
        cancelled_at       timestamptz,
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_time_off_requests_org_id UNIQUE (organization_id, id),
        CONSTRAINT ck_time_off_requests_end_after_start CHECK (end_time > start_time),
        CONSTRAINT fk_time_off_requests_worker FOREIGN KEY (organization_id, worker_id)
          REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_time_off_requests_worker_policy FOREIGN KEY (organization_id, policy_id, worker_id)
          REFERENCES worker_policies (organization_id, policy_id, worker_id),
        CONSTRAINT fk_time_off_requests_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT ex_time_off_requests_no_overlap EXCLUDE USING gist (
          organization_id WITH =,
          worker_id WITH =,
          tstzrange(start_time, end_time, '[)') WITH &&
        ) WHERE (status IN ('pending', 'approved'))
      );
      CREATE INDEX ix_time_off_requests_worker ON time_off_requests (organization_id, worker_id, start_time);
      CREATE INDEX ix_time_off_requests_status_start ON time_off_requests (organization_id, status, start_time);
      CREATE INDEX ix_time_off_requests_policy_worker ON time_off_requests (organization_id, policy_id, worker_id) WHERE status = 'pending';
      CREATE INDEX ix_time_off_requests_location ON time_off_requests (organization_id, location_id) WHERE location_id IS NOT NULL;

      -- effective_date: the day (organization's zone) the hours count from; period_key makes accruals idempotent.
      CREATE TABLE time_off_ledger (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq              bigint GENERATED ALWAYS AS IDENTITY,
        organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        worker_policy_id uuid NOT NULL,
        kind             text NOT NULL CHECK (kind IN ('grant', 'accrual', 'use', 'give_back', 'adjustment', 'carryover_forfeit')),
        hours            numeric(14, 6) NOT NULL,
        effective_date   date NOT NULL,
        period_key       text,
        request_id       uuid,
        shift_id         uuid,
        recorded_by      uuid,
        note             text,
        recorded_at      timestamptz NOT NULL,
        CONSTRAINT fk_time_off_ledger_worker_policy FOREIGN KEY (organization_id, worker_policy_id)
          REFERENCES worker_policies (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_time_off_ledger_request FOREIGN KEY (organization_id, request_id)
          REFERENCES time_off_requests (organization_id, id),
        CONSTRAINT fk_time_off_ledger_shift FOREIGN KEY (organization_id, shift_id)
          REFERENCES shifts (organization_id, id),
        CONSTRAINT fk_time_off_ledger_recorded_by FOREIGN KEY (organization_id, recorded_by)
          REFERENCES staff_members (organization_id, id),
        CONSTRAINT ck_time_off_ledger_period CHECK ((period_key IS NOT NULL) = (kind IN ('grant', 'accrual', 'carryover_forfeit'))),
        CONSTRAINT uq_time_off_ledger_period UNIQUE (worker_policy_id, kind, period_key)
      );
      CREATE INDEX ix_time_off_ledger_worker_policy ON time_off_ledger (worker_policy_id, seq);
      CREATE INDEX ix_time_off_ledger_effective ON time_off_ledger (worker_policy_id, effective_date);
      CREATE INDEX ix_time_off_ledger_org ON time_off_ledger (organization_id, recorded_at);
      -- A request uses its hours once and gets them back once.
      CREATE UNIQUE INDEX uq_time_off_ledger_request_kind ON time_off_ledger (request_id, kind) WHERE request_id IS NOT NULL;

      CREATE TABLE time_off_settings (
        organization_id        uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        default_full_day_hours numeric(8, 4) NOT NULL DEFAULT 8 CHECK (default_full_day_hours > 0 AND default_full_day_hours <= 24),
        week_start             text NOT NULL DEFAULT 'Monday'
          CHECK (week_start IN ('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday')),
        allow_past_requests    boolean NOT NULL DEFAULT false,
        minimum_notice_days    integer NOT NULL DEFAULT 0 CHECK (minimum_notice_days BETWEEN 0 AND 365),
        workers_see_balances   boolean NOT NULL DEFAULT true,
        created_at             timestamptz NOT NULL DEFAULT now(),
        updated_at             timestamptz NOT NULL DEFAULT now()
      );

      INSERT INTO time_off_policy_types (organization_id, name, type)
      SELECT o.id, t.type, t.type
      FROM organizations o
      CROSS JOIN (VALUES ('Vacation'), ('Sick'), ('Personal'), ('Bereavement'), ('Holiday'), ('Unpaid'), ('Other')) AS t (type)
      ON CONFLICT DO NOTHING;

      INSERT INTO time_off_settings (organization_id) SELECT id FROM organizations ON CONFLICT DO NOTHING;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE time_off_settings;
      DROP TABLE time_off_ledger;
      DROP TABLE time_off_requests;
      DROP TABLE worker_policies;
      DROP TABLE time_off_policies;
      DROP TABLE time_off_policy_types;
    `);
  }
}
