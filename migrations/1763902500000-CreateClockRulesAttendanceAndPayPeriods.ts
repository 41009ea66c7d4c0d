import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Where and when people may clock in, what the attendance record finds, and pay periods a manager
 * signs off.
 *
 * - `clock_rules`: one row per location that restricts punches (geofence, networks, devices, early
 *   window, schedule); `clock_devices`: registered kiosks, their token kept only as `secret_hash`
 *   (which the audit trail and events leave out).
 * - `attendance_policies`: an organization's thresholds; exceptions are recorded once it has one.
 * - `attendance_exceptions`: each once per shift or schedule entry (`subject_id`) and kind, by the
 *   unique key, so that the detection job may run in every process: `ON CONFLICT DO NOTHING`
 *   leaves the second finder without a row and without an event.
 * - `pay_schedules`, `pay_period_timesheets` (one per person and period) and `pay_period_closes`.
 *
 * Events: exceptions created and updated, a timesheet approved, a period closed, written by the
 * trigger below through `record_event`, in the transaction of the change.
 */
export class CreateClockRulesAttendanceAndPayPeriods1763902500000 implements MigrationInterface {
  name = "CreateClockRulesAttendanceAndPayPeriods1763902500000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE clock_rules (
        organization_id        uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id            uuid NOT NULL,
        geofence_latitude      double precision CHECK (geofence_latitude BETWEEN -90 AND 90),
        geofence_longitude     double precision CHECK (geofence_longitude BETWEEN -180 AND 180),
        geofence_radius_meters double precision CHECK (geofence_radius_meters > 0 AND geofence_radius_meters <= 100000),
        allowed_networks       text[] NOT NULL DEFAULT '{}',
        require_device         boolean NOT NULL DEFAULT false,
        early_clock_in_minutes integer CHECK (early_clock_in_minutes BETWEEN 0 AND 1440),
        require_schedule       boolean NOT NULL DEFAULT false,
        enforcement            text NOT NULL DEFAULT 'BLOCK' CHECK (enforcement IN ('BLOCK', 'FLAG')),
        updated_at             timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, location_id),
        CONSTRAINT ck_clock_rules_geofence_whole CHECK (
          (geofence_latitude IS NULL) = (geofence_longitude IS NULL) AND (geofence_latitude IS NULL) = (geofence_radius_meters IS NULL)),
        CONSTRAINT fk_clock_rules_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );

      CREATE TABLE clock_devices (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id     uuid NOT NULL,
        name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        secret_hash     text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        revoked_at      timestamptz,
        CONSTRAINT uq_clock_devices_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_clock_devices_token UNIQUE (organization_id, secret_hash),
        CONSTRAINT fk_clock_devices_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ix_clock_devices_location ON clock_devices (organization_id, location_id, created_at);

      CREATE TABLE attendance_policies (
        organization_id                uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        late_grace_minutes             integer NOT NULL DEFAULT 5 CHECK (late_grace_minutes BETWEEN 0 AND 1440),
        early_out_grace_minutes        integer NOT NULL DEFAULT 5 CHECK (early_out_grace_minutes BETWEEN 0 AND 1440),
        no_show_after_minutes          integer NOT NULL DEFAULT 30 CHECK (no_show_after_minutes BETWEEN 1 AND 1440),
        missed_clock_out_after_minutes integer NOT NULL DEFAULT 60 CHECK (missed_clock_out_after_minutes BETWEEN 1 AND 1440),
        long_shift_hours               numeric(5, 2) NOT NULL DEFAULT 12 CHECK (long_shift_hours > 0 AND long_shift_hours <= 48),
        updated_at                     timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE attendance_exceptions (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        kind            text NOT NULL CHECK (kind IN ('LATE_IN', 'EARLY_OUT', 'NO_SHOW', 'MISSED_CLOCK_OUT', 'UNSCHEDULED_SHIFT', 'CLOCK_RULE', 'MISSED_BREAK', 'LONG_SHIFT')),
        severity        text NOT NULL CHECK (severity IN ('critical', 'warning')),
        staff_id        uuid NOT NULL,
        location_id     uuid NOT NULL,
        entry_id        uuid,
        shift_id        uuid,
        -- The shift, or the schedule entry of a no-show: what the exception is counted once against.
        subject_id      uuid NOT NULL,
        day             date NOT NULL,
        minutes         integer,
        message         text NOT NULL,
        detected_at     timestamptz NOT NULL,
        status          text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'EXCUSED', 'RESOLVED')),
        resolution_note text,
        resolved_by     uuid,
        resolved_at     timestamptz,
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_attendance_exceptions_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_attendance_exceptions_once UNIQUE (organization_id, subject_id, kind),
        CONSTRAINT ck_attendance_exceptions_subject CHECK (subject_id = shift_id OR subject_id = entry_id),
        CONSTRAINT fk_attendance_exceptions_staff FOREIGN KEY (organization_id, staff_id)
          REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_attendance_exceptions_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT fk_attendance_exceptions_shift FOREIGN KEY (organization_id, shift_id)
          REFERENCES shifts (organization_id, id),
        CONSTRAINT fk_attendance_exceptions_entry FOREIGN KEY (organization_id, entry_id)
          REFERENCES schedule_entries (organization_id, id)
      );
      CREATE INDEX ix_attendance_exceptions_day ON attendance_exceptions (organization_id, day, detected_at, id);
      CREATE INDEX ix_attendance_exceptions_staff_day ON attendance_exceptions (organization_id, staff_id, day);

      CREATE TABLE pay_schedules (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        frequency       text NOT NULL CHECK (frequency IN ('WEEKLY', 'BIWEEKLY', 'SEMIMONTHLY', 'MONTHLY')),
        anchor_date     date NOT NULL,
        updated_at      timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE pay_period_timesheets (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        staff_id        uuid NOT NULL,
        period_start    date NOT NULL,
        period_end      date NOT NULL,
        status          text NOT NULL CHECK (status IN ('OPEN', 'SUBMITTED', 'APPROVED')),
        submitted_at    timestamptz,
        approved_at     timestamptz,
        approved_by     uuid,
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_pay_period_timesheets_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_pay_period_timesheets_person UNIQUE (organization_id, staff_id, period_start),
        CONSTRAINT ck_pay_period_timesheets_range CHECK (period_end >= period_start),
        CONSTRAINT fk_pay_period_timesheets_staff FOREIGN KEY (organization_id, staff_id)
          REFERENCES staff_members (organization_id, id)
      );
      CREATE INDEX ix_pay_period_timesheets_period ON pay_period_timesheets (organization_id, period_start, status);

      CREATE TABLE pay_period_closes (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        period_start    date NOT NULL,
        period_end      date NOT NULL,
        closed_at       timestamptz NOT NULL,
        closed_by       uuid,
        forced          boolean NOT NULL DEFAULT false,
        reason          text,
        not_approved    uuid[] NOT NULL DEFAULT '{}',
        CONSTRAINT uq_pay_period_closes_period UNIQUE (organization_id, period_start),
        CONSTRAINT ck_pay_period_closes_forced_reason CHECK (NOT forced OR length(reason) > 0)
      );

      SELECT audit_table('clock_rules');
      SELECT audit_table('clock_devices');
      SELECT audit_table('attendance_policies');
      SELECT audit_table('attendance_exceptions');
      SELECT audit_table('pay_schedules');
      SELECT audit_table('pay_period_timesheets');
      SELECT audit_table('pay_period_closes');
      SELECT guard_table_versions('attendance_exceptions');
      SELECT guard_table_versions('pay_period_timesheets');

      CREATE FUNCTION attendance_event_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        new_row jsonb := to_jsonb(NEW);
        old_row jsonb;
        previous jsonb;
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          old_row := to_jsonb(OLD);
          IF old_row = new_row THEN RETURN NULL; END IF;
          SELECT jsonb_object_agg(o.key, o.value) INTO previous FROM jsonb_each(old_row) o WHERE new_row->o.key IS DISTINCT FROM o.value;
        END IF;
        IF TG_TABLE_NAME = 'attendance_exceptions' THEN
          PERFORM record_event(NEW.organization_id, CASE TG_OP WHEN 'INSERT' THEN 'attendance.exception.created' ELSE 'attendance.exception.updated' END,
                               TG_TABLE_NAME, new_row, previous);
        ELSIF TG_TABLE_NAME = 'pay_period_timesheets' THEN
          IF new_row->>'status' = 'APPROVED' AND (TG_OP = 'INSERT' OR old_row->>'status' <> 'APPROVED') THEN
            PERFORM record_event(NEW.organization_id, 'timesheet.approved', TG_TABLE_NAME, new_row, previous);
          END IF;
        ELSIF TG_TABLE_NAME = 'pay_period_closes' AND TG_OP = 'INSERT' THEN
          PERFORM record_event(NEW.organization_id, 'pay_period.closed', TG_TABLE_NAME, new_row, NULL);
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER events AFTER INSERT OR UPDATE ON attendance_exceptions FOR EACH ROW EXECUTE FUNCTION attendance_event_row();
      CREATE TRIGGER events AFTER INSERT OR UPDATE ON pay_period_timesheets FOR EACH ROW EXECUTE FUNCTION attendance_event_row();
      CREATE TRIGGER events AFTER INSERT ON pay_period_closes FOR EACH ROW EXECUTE FUNCTION attendance_event_row();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE pay_period_closes;
      DROP TABLE pay_period_timesheets;
      DROP TABLE pay_schedules;
      DROP TABLE attendance_exceptions;
      DROP TABLE attendance_policies;
      DROP TABLE clock_devices;
      DROP TABLE clock_rules;
      DROP FUNCTION attendance_event_row();
    `);
  }
}
