import { DataSource } from "typeorm";

export interface BenchOrganization {
  organizationId: string;
  locationIds: string[];
}

const ZONES = ["America/New_York", "America/Chicago", "America/Los_Angeles", "Europe/Berlin", "Europe/London", "Asia/Kolkata"];

/**
 * A realistic organization, written straight in SQL (the services would take hours for half a
 * million shifts, and as one bulk load, not audited): `locations` locations, `staff` staff spread over them, and `shiftsPerStaff`
 * eight-hour shifts per staff member on consecutive days from `firstDay`, each with a paid
 * 15-minute and an unpaid 30-minute break.
 */
export async function seedBenchOrganization(
  db: DataSource,
  organizationId: string,
  sizes: { locations: number; staff: number; shiftsPerStaff: number; firstDay: string },
): Promise<BenchOrganization> {
  // One transaction, with row triggers (the audit trail) off: a bulk load is not a user's change.
  await db.transaction(async (m) => {
    await m.query("SET LOCAL session_replication_role = replica");
    await m.query(
      `INSERT INTO locations (organization_id, name, timezone, external_id)
       SELECT $1, 'Location ' || g, ($2::text[])[1 + g % array_length($2::text[], 1)], 'LOC-' || g FROM generate_series(1, $3) g`,
      [organizationId, ZONES, sizes.locations],
    );
    await m.query(`INSERT INTO roles (organization_id, name, hourly_wage) SELECT $1, 'Role ' || g, 14 + g FROM generate_series(1, 10) g`, [organizationId]);
    const [{ id: workerRole }] = await m.query("SELECT id FROM access_roles WHERE organization_id = $1 AND name = 'Worker'", [organizationId]);
    await m.query(
      `INSERT INTO staff_members (organization_id, name, external_employee_id, payroll_id, email, access_role_id)
       SELECT $1, 'Staff ' || g, 'EMP-' || g, 'PR-' || g, 'staff' || g || '@example.com', $2 FROM generate_series(1, $3) g`,
      [organizationId, workerRole, sizes.staff],
    );
    // Staff member n works at location n mod L and in role n mod 10.
    await m.query(
      `WITH s AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM staff_members WHERE organization_id = $1),
            l AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM locations WHERE organization_id = $1),
            r AS (SELECT id, hourly_wage, row_number() OVER (ORDER BY id) - 1 AS n FROM roles WHERE organization_id = $1)
       INSERT INTO staff_locations (organization_id, staff_id, location_id)
       SELECT $1, s.id, l.id FROM s JOIN l ON l.n = s.n % (SELECT count(*) FROM l)`,
      [organizationId],
    );
    await m.query(
      `WITH s AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM staff_members WHERE organization_id = $1),
            r AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM roles WHERE organization_id = $1)
       INSERT INTO staff_roles (organization_id, staff_id, role_id)
       SELECT $1, s.id, r.id FROM s JOIN r ON r.n = s.n % 10`,
      [organizationId],
    );
    // Shifts start at 09:00 local time of their location, written day by day as a live service writes them.
    // Row triggers are off, so the break totals each shift keeps (the breaks below, all inside it) are
    // written here and checked against the database's own rule after the load.
    await m.query(
      `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, hourly_wage, paid_break_ms, unpaid_break_ms)
       SELECT $1, sl.staff_id, sl.location_id, sr.role_id,
              ((($2::date + d) + time '09:00') AT TIME ZONE l.timezone),
              ((($2::date + d) + time '17:00') AT TIME ZONE l.timezone),
              ro.hourly_wage, 15 * 60000, 30 * 60000
         FROM staff_locations sl
         JOIN staff_roles sr ON sr.staff_id = sl.staff_id
         JOIN roles ro ON ro.id = sr.role_id
         JOIN locations l ON l.id = sl.location_id
         CROSS JOIN generate_series(0, $3 - 1) d
        WHERE sl.organization_id = $1
        ORDER BY d, sl.staff_id`,
      [organizationId, sizes.firstDay, sizes.shiftsPerStaff],
    );
    await m.query(
      `INSERT INTO shift_breaks (organization_id, shift_id, start_time, end_time, paid, name, duration_minutes)
       SELECT organization_id, id, start_time + interval '2 hours', start_time + interval '2 hours 15 minutes', true, 'Rest', 15 FROM shifts WHERE organization_id = $1
       UNION ALL
       SELECT organization_id, id, start_time + interval '4 hours', start_time + interval '4 hours 30 minutes', false, 'Lunch', 30 FROM shifts WHERE organization_id = $1`,
      [organizationId],
    );
    // And the list of its breaks each shift keeps, by the database's own rule.
    await m.query("SELECT list_shift_breaks(ARRAY(SELECT id FROM shifts WHERE organization_id = $1))", [organizationId]);
  });
  await db.query("VACUUM ANALYZE");
  const [{ wrong }] = await db.query(
    `SELECT count(*)::int AS wrong FROM shifts s, shift_break_ms(s.id, s.start_time, s.end_time) t
      WHERE s.organization_id = $1 AND (t.paid_ms, t.unpaid_ms) IS DISTINCT FROM (s.paid_break_ms, s.unpaid_break_ms)`,
    [organizationId],
  );
  if (wrong) throw new Error(`${wrong} seeded shifts carry break totals their breaks do not add up to`);
  const locations: { id: string }[] = await db.query("SELECT id FROM locations WHERE organization_id = $1 ORDER BY id", [organizationId]);
  return { organizationId, locationIds: locations.map((l) => l.id) };
}
