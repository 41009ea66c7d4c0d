import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every ended shift carries the milliseconds of its paid and unpaid breaks, each break clipped to
 * the shift (a break still running counts up to the shift's end), kept by triggers in the
 * transaction of the change. Exports, reports and accruals read them with the shift instead of
 * adding up its breaks row by row, which was most of a payroll export's time in the database.
 * Both are null while the shift is open: its breaks are not final until it ends.
 *
 * The rule is the one the service applies to open shifts (`spanMinutes`): times in whole
 * milliseconds, cut rather than rounded, as a JavaScript Date holds them.
 *
 * Concurrency: a change of breaks recomputes its shifts in an UPDATE of their rows, after the row
 * lock is taken, in a statement of its own (a fresh snapshot under READ COMMITTED), so of two
 * transactions adding breaks to one shift, the later one counts both.
 */
export class KeepShiftBreakTotals1763900700000 implements MigrationInterface {
  name = "KeepShiftBreakTotals1763900700000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE shifts ADD COLUMN paid_break_ms bigint, ADD COLUMN unpaid_break_ms bigint;
      -- Room in each page for the row versions those updates write, so they stay off the indexes (HOT).
      ALTER TABLE shifts SET (fillfactor = 90);
      COMMENT ON COLUMN shifts.paid_break_ms IS 'Paid breaks clipped to the ended shift, in milliseconds; null while the shift is open. Kept by trigger.';
      COMMENT ON COLUMN shifts.unpaid_break_ms IS 'Unpaid breaks clipped to the ended shift, in milliseconds; null while the shift is open. Kept by trigger.';

      -- A timestamp as whole epoch milliseconds, cut rather than rounded, as a JavaScript Date holds it
      -- (also how shift reads send break times inside JSON). STABLE and not STRICT, like its body, so
      -- the planner inlines it: called as a function it cost ten times more.
      CREATE FUNCTION epoch_ms(t timestamptz) RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE
        AS $$ SELECT trunc(extract(epoch FROM t) * 1000)::bigint $$;

      -- plpgsql keeps the plan of its query; a SQL function called per row was planned again each time.
      CREATE FUNCTION shift_break_ms(shift uuid, shift_start timestamptz, shift_end timestamptz, OUT paid_ms bigint, OUT unpaid_ms bigint)
      LANGUAGE plpgsql STABLE AS $$
      BEGIN
        IF shift_end IS NULL THEN RETURN; END IF;
        SELECT COALESCE(sum(ms) FILTER (WHERE paid), 0), COALESCE(sum(ms) FILTER (WHERE NOT paid), 0) INTO paid_ms, unpaid_ms
          FROM (SELECT b.paid,
                       GREATEST(0, LEAST(epoch_ms(GREATEST(shift_start, shift_end)), epoch_ms(COALESCE(b.end_time, shift_end)))
                                   - GREATEST(epoch_ms(shift_start), epoch_ms(b.start_time))) AS ms
                FROM shift_breaks b WHERE b.shift_id = shift) clipped;
      END $$;

      -- Runs on the locked row, so the breaks it reads are the ones committed by then plus this transaction's own.
      CREATE FUNCTION compute_shift_break_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT t.paid_ms, t.unpaid_ms INTO NEW.paid_break_ms, NEW.unpaid_break_ms
          FROM shift_break_ms(NEW.id, NEW.start_time, NEW.end_time) t;
        RETURN NEW;
      END $$;
      CREATE TRIGGER compute_break_totals BEFORE INSERT OR UPDATE OF start_time, end_time, paid_break_ms, unpaid_break_ms ON shifts
        FOR EACH ROW EXECUTE FUNCTION compute_shift_break_totals();

      -- Touching the totals of the shifts whose breaks changed makes the trigger above compute them afresh.
      CREATE FUNCTION refresh_shift_break_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE shifts SET paid_break_ms = NULL WHERE id IN (SELECT DISTINCT shift_id FROM changed_breaks);
        RETURN NULL;
      END $$;
      CREATE TRIGGER refresh_break_totals_on_insert AFTER INSERT ON shift_breaks
        REFERENCING NEW TABLE AS changed_breaks FOR EACH STATEMENT EXECUTE FUNCTION refresh_shift_break_totals();
      CREATE TRIGGER refresh_break_totals_on_update_from AFTER UPDATE ON shift_breaks
        REFERENCING OLD TABLE AS changed_breaks FOR EACH STATEMENT EXECUTE FUNCTION refresh_shift_break_totals();
      CREATE TRIGGER refresh_break_totals_on_update_to AFTER UPDATE ON shift_breaks
        REFERENCING NEW TABLE AS changed_breaks FOR EACH STATEMENT EXECUTE FUNCTION refresh_shift_break_totals();
      CREATE TRIGGER refresh_break_totals_on_delete AFTER DELETE ON shift_breaks
        REFERENCING OLD TABLE AS changed_breaks FOR EACH STATEMENT EXECUTE FUNCTION refresh_shift_break_totals();

      -- The audit trail records what people changed: columns the database derives are left out
      -- (named as trigger arguments), so recomputed totals alone write no event.
      CREATE OR REPLACE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
        old_row jsonb;
        new_row jsonb;
      BEGIN
        IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD) - 'secret_hash' - COALESCE(TG_ARGV, '{}'); END IF;
        IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW) - 'secret_hash' - COALESCE(TG_ARGV, '{}'); END IF;
        IF TG_OP = 'UPDATE' AND old_row = new_row THEN RETURN NULL; END IF;
        INSERT INTO audit_events (organization_id, actor_staff_id, actor_api_key_id, request_id, resource_type, resource_id, action, before, after)
        VALUES (
          COALESCE(new_row->>'organization_id', old_row->>'organization_id',
                   CASE WHEN TG_TABLE_NAME = 'organizations' THEN COALESCE(new_row->>'id', old_row->>'id') END)::uuid,
          nullif(actor->>'staffId', '')::uuid,
          nullif(actor->>'apiKeyId', '')::uuid,
          actor->>'requestId',
          TG_TABLE_NAME,
          COALESCE(new_row->>'id', old_row->>'id'),
          lower(TG_OP),
          old_row,
          new_row
        );
        RETURN NULL;
      END $$;
      DROP TRIGGER audit ON shifts;
      CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON shifts
        FOR EACH ROW EXECUTE FUNCTION audit_row('paid_break_ms', 'unpaid_break_ms');

      -- Shifts already ended get their totals by the same rule, without an audit event or version check each.
      ALTER TABLE shifts DISABLE TRIGGER USER;
      UPDATE shifts s SET (paid_break_ms, unpaid_break_ms) = (SELECT t.paid_ms, t.unpaid_ms FROM shift_break_ms(s.id, s.start_time, s.end_time) t)
       WHERE s.end_time IS NOT NULL;
      ALTER TABLE shifts ENABLE TRIGGER USER;
      ALTER TABLE shifts ADD CONSTRAINT ck_shifts_break_totals_once_ended
        CHECK (CASE WHEN end_time IS NULL THEN paid_break_ms IS NULL AND unpaid_break_ms IS NULL
                    ELSE paid_break_ms IS NOT NULL AND unpaid_break_ms IS NOT NULL END);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER audit ON shifts;
      CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON shifts FOR EACH ROW EXECUTE FUNCTION audit_row();
      DROP TRIGGER refresh_break_totals_on_insert ON shift_breaks;
      DROP TRIGGER refresh_break_totals_on_update_from ON shift_breaks;
      DROP TRIGGER refresh_break_totals_on_update_to ON shift_breaks;
      DROP TRIGGER refresh_break_totals_on_delete ON shift_breaks;
      DROP FUNCTION refresh_shift_break_totals();
      DROP TRIGGER compute_break_totals ON shifts;
      DROP FUNCTION compute_shift_break_totals();
      DROP FUNCTION shift_break_ms(uuid, timestamptz, timestamptz);
      DROP FUNCTION epoch_ms(timestamptz);
      ALTER TABLE shifts DROP CONSTRAINT ck_shifts_break_totals_once_ended;
      ALTER TABLE shifts DROP COLUMN paid_break_ms, DROP COLUMN unpaid_break_ms;
      ALTER TABLE shifts RESET (fillfactor);
    `);
  }
}
