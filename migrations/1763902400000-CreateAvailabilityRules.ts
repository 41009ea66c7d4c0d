import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Who can work when.
 *
 * `availability_rules`: a staff member's rule, one day (`date`) or weekly (`weekdays` between
 * `effective_from` and `effective_until`), the whole day or a window of local wall time in minutes
 * after midnight (`end_minute` not after `start_minute`: the window runs past midnight). A rule a
 * worker writes is PENDING while the organization asks for approval; only APPROVED ones count.
 *
 * `availability_settings`: the organization's choice whether workers' rules need approval; an
 * organization without a row does not ask for it.
 *
 * `record_status_events_of`: events of a table whose rows move through statuses: `<resource>.created`,
 * `<resource>.<status in lower case>` when the status changes, `.updated`, `.deleted`.
 *
 * Workers and managers of organizations that exist already receive the new permissions.
 */
export class CreateAvailabilityRules1763902400000 implements MigrationInterface {
  name = "CreateAvailabilityRules1763902400000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE availability_settings (
        organization_id   uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        requires_approval boolean NOT NULL DEFAULT false,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now()
      );
      SELECT audit_table('availability_settings');

      CREATE TABLE availability_rules (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        worker_id       uuid NOT NULL,
        kind            text NOT NULL CHECK (kind IN ('UNAVAILABLE', 'PREFER_ON', 'PREFER_OFF')),
        date            date,
        weekdays        text[] CHECK (weekdays <@ ARRAY['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] AND cardinality(weekdays) > 0),
        start_minute    smallint CHECK (start_minute BETWEEN 0 AND 1439),
        end_minute      smallint CHECK (end_minute BETWEEN 0 AND 1439),
        template_id     uuid,
        weight          integer NOT NULL DEFAULT 1 CHECK (weight BETWEEN 1 AND 100),
        effective_from  date,
        effective_until date,
        note            text CHECK (length(note) <= 2000),
        status          text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'DECLINED')),
        decided_by      uuid,
        decided_at      timestamptz,
        created_by      uuid,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_availability_rules_org_id UNIQUE (organization_id, id),
        CONSTRAINT fk_availability_rules_worker FOREIGN KEY (organization_id, worker_id)
          REFERENCES staff_members (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT ck_availability_rules_one_day_or_weekly CHECK ((date IS NULL) <> (weekdays IS NULL)),
        CONSTRAINT ck_availability_rules_window CHECK ((start_minute IS NULL) = (end_minute IS NULL)),
        CONSTRAINT ck_availability_rules_effective CHECK (effective_until IS NULL OR effective_from IS NULL OR effective_until >= effective_from)
      );
      -- The rules of a set of staff (the resolved view, eligibility, generation) and a worker's list.
      CREATE INDEX ix_availability_rules_worker ON availability_rules (organization_id, worker_id, status);
      SELECT audit_table('availability_rules');

      CREATE FUNCTION status_event_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        resource text := TG_ARGV[0];
        old_row jsonb;
        new_row jsonb;
        previous jsonb;
        verb text;
      BEGIN
        IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
        IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
        IF TG_OP = 'UPDATE' AND old_row = new_row THEN RETURN NULL; END IF;
        IF TG_OP = 'UPDATE' THEN
          SELECT jsonb_object_agg(o.key, o.value) INTO previous FROM jsonb_each(old_row) o WHERE new_row->o.key IS DISTINCT FROM o.value;
        END IF;
        verb := CASE
          WHEN TG_OP = 'INSERT' THEN 'created'
          WHEN TG_OP = 'DELETE' THEN 'deleted'
          WHEN new_row->>'status' IS DISTINCT FROM old_row->>'status' THEN lower(new_row->>'status')
          ELSE 'updated' END;
        PERFORM record_event((COALESCE(new_row, old_row)->>'organization_id')::uuid, resource || '.' || verb, TG_TABLE_NAME, COALESCE(new_row, old_row), previous);
        RETURN NULL;
      END $$;

      CREATE FUNCTION record_status_events_of(table_name text, resource text) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE TRIGGER events AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION status_event_row(%L)', table_name, resource);
      END $$;
      SELECT record_status_events_of('availability_rules', 'availability_rule');

      UPDATE access_roles SET permissions = permissions || ARRAY['availability:self']
       WHERE is_system AND name = 'Worker' AND NOT ('availability:self' = ANY (permissions));
      UPDATE access_roles SET permissions = permissions || ARRAY['availability:self', 'availability:read', 'availability:manage']
       WHERE is_system AND name IN ('Admin', 'Manager') AND NOT ('availability:manage' = ANY (permissions));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE access_roles SET permissions = array_remove(array_remove(array_remove(permissions, 'availability:self'), 'availability:read'), 'availability:manage');
      DROP TABLE availability_rules;
      DROP FUNCTION record_status_events_of(text, text);
      DROP FUNCTION status_event_row();
      DROP TABLE availability_settings;
    `);
  }
}
