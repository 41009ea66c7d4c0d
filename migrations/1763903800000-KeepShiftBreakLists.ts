import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Each shift's breaks as the API reads them, one JSON list per shift kept by trigger in the
 * transaction of the change. A location-week of timesheets built that list from the breaks of each
 * of its shifts (a subquery and an aggregate per shift), which was about half the query's time
 * in the database. Derived data: no event or audit row of its own (the breaks have theirs).
 *
 * The list's elements are the shift reads' BreakRow: [start ms, end ms | null, paid, id, type id,
 * name, mandatory, frequency minutes, duration minutes], by start. A shift whose breaks never changed
 * has no list; reads take that as none.
 *
 * Concurrency: the trigger that already updates the shifts whose breaks changed takes their row
 * locks first, then writes their lists in a statement of its own (a fresh snapshot under READ
 * COMMITTED), so of two transactions adding breaks to one shift, the later one lists both.
 */
export class KeepShiftBreakLists1763903800000 implements MigrationInterface {
  name = "KeepShiftBreakLists1763903800000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE shift_break_lists (
        organization_id uuid NOT NULL,
        shift_id        uuid NOT NULL,
        breaks          json NOT NULL,
        PRIMARY KEY (organization_id, shift_id),
        CONSTRAINT fk_shift_break_lists_shift FOREIGN KEY (organization_id, shift_id)
          REFERENCES shifts (organization_id, id) ON DELETE CASCADE
      );
      COMMENT ON TABLE shift_break_lists IS 'Each shift''s breaks as shift reads return them (BreakRow JSON, by start). Kept by trigger.';

      -- The lists of some shifts (any number: the trigger's few, or every shift at once), from their breaks as this statement sees them.
      -- plpgsql keeps the plan of its statement, which a trigger's every change of breaks runs.
      CREATE FUNCTION list_shift_breaks(shift_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO shift_break_lists (organization_id, shift_id, breaks)
        SELECT s.organization_id, s.id,
               COALESCE(json_agg(json_build_array(epoch_ms(b.start_time), epoch_ms(b.end_time), b.paid, b.id, b.break_type_id,
                                                  b.name, b.mandatory, b.frequency_minutes, b.duration_minutes) ORDER BY b.start_time)
                          FILTER (WHERE b.id IS NOT NULL), '[]')
          FROM shifts s LEFT JOIN shift_breaks b ON b.shift_id = s.id
         WHERE s.id IN (SELECT unnest(shift_ids))
         GROUP BY s.organization_id, s.id
        ON CONFLICT (organization_id, shift_id) DO UPDATE SET breaks = EXCLUDED.breaks;
      END $$;

      CREATE OR REPLACE FUNCTION refresh_shift_break_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed uuid[] := ARRAY(SELECT DISTINCT shift_id FROM changed_breaks);
      BEGIN
        UPDATE shifts SET paid_break_ms = NULL WHERE id = ANY (changed);
        PERFORM list_shift_breaks(changed);
        RETURN NULL;
      END $$;

      SELECT list_shift_breaks(ARRAY(SELECT DISTINCT shift_id FROM shift_breaks));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION refresh_shift_break_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE shifts SET paid_break_ms = NULL WHERE id IN (SELECT DISTINCT shift_id FROM changed_breaks);
        RETURN NULL;
      END $$;
      DROP FUNCTION list_shift_breaks(uuid[]);
      DROP TABLE shift_break_lists;
    `);
  }
}
