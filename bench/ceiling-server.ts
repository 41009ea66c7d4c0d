import http from "node:http";
import { Pool } from "pg";

/**
 * The ceiling of the location-week list: one hand-written SQL statement that builds each shift
 * (local times with offsets, UTC times, break minutes) and JSON.stringify, with no framework at all.
 * It reads each shift's breaks from the list the database keeps of them, as the service does.
 */
const LIST_SQL = `
WITH range AS (
  SELECT l.timezone, (($3::date) AT TIME ZONE l.timezone) AS from_ts, (($4::date + 1) AT TIME ZONE l.timezone) AS to_ts
    FROM locations l WHERE l.organization_id = $1 AND l.id = $2
)
SELECT s.id, s.employee_id, s.location_id, s.role_id, s.start_time, s.end_time, s.hourly_wage, s.active,
       s.created_at, s.updated_at, range.timezone,
       EXTRACT(EPOCH FROM (s.start_time AT TIME ZONE range.timezone) - (s.start_time AT TIME ZONE 'UTC'))::int / 60 AS utc_offset,
       COALESCE(bl.breaks, '[]') AS breaks
  FROM range, shifts s
  LEFT JOIN shift_break_lists bl ON bl.organization_id = s.organization_id AND bl.shift_id = s.id
 WHERE s.organization_id = $1 AND s.location_id = $2 AND s.deleted_at IS NULL
   AND s.start_time >= range.from_ts AND s.start_time < range.to_ts
 ORDER BY s.start_time, s.id`;

function local(ts: Date, offset: number): string {
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const wall = new Date(ts.getTime() + offset * 60000).toISOString().slice(0, 23);
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

type BreakRow = [number, number, boolean, string, string | null, string, boolean, number, number];

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  const q = url.searchParams;
  const { rows } = await pool.query(LIST_SQL, [q.get("organizationId"), q.get("locationId"), q.get("startDate"), q.get("endDate")]);
  const totals = { duration: 0, totalPaidBreaks: 0, totalUnpaidBreaks: 0 };
  const shifts = rows.map((r) => {
    const duration = Math.floor((r.end_time - r.start_time) / 60000);
    let paid = 0;
    let unpaid = 0;
    // [start ms, end ms, paid, id, type id, name, mandatory, frequency minutes, duration minutes]
    const breaks = r.breaks.map(([start, end, isPaid, , typeId, name, mandatory, frequencyMinutes, durationInSettingsMinutes]: BreakRow) => {
      const minutes = Math.floor((end - start) / 60000);
      if (isPaid) paid += minutes;
      else unpaid += minutes;
      return {
        startTime: local(new Date(start), r.utc_offset),
        endTime: local(new Date(end), r.utc_offset),
        typeId,
        paid: isPaid,
        name,
        mandatory,
        frequencyMinutes,
        durationInSettingsMinutes,
      };
    });
    totals.duration += duration;
    totals.totalPaidBreaks += paid;
    totals.totalUnpaidBreaks += unpaid;
    return {
      id: r.id,
      employeeId: r.employee_id,
      locationId: r.location_id,
      roleId: r.role_id,
      startTime: local(r.start_time, r.utc_offset),
      endTime: local(r.end_time, r.utc_offset),
      breaks,
      hourlyWage: Number(r.hourly_wage),
      totalPaidBreaks: paid,
      totalUnpaidBreaks: unpaid,
      duration,
      payableDuration: duration - unpaid,
      utcOffset: r.utc_offset,
      utcStartTime: r.start_time.toISOString(),
      utcEndTime: r.end_time.toISOString(),
      locked: false,
      active: r.active,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      deletedAt: null,
    };
  });
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({ shifts, lockedDays: [], totals }));
});

server.listen(Number(process.env.PORT ?? 0), () => {
  console.log(`listening on http://localhost:${(server.address() as { port: number }).port}`);
});
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
