import { DataSource, EntityManager } from "typeorm";
import { updateReturning } from "../../database/returning";
import { spanOverlaps } from "../../database/spans";

/** The SQL of calendar feeds: the feeds themselves, and what a feed shows (entries, departures, time off). */

/** Whose calendar a feed is: one staff member's, or one location's. */
export type FeedSubject = { staffId: string } | { locationId: string };

export interface FeedRow {
  id: string;
  organization_id: string;
  staff_id: string | null;
  location_id: string | null;
  /** The staff member's or the location's name. */
  name: string;
}

export interface EntryRow {
  id: string;
  revision: number;
  start_time: Date;
  end_time: Date;
  note: string | null;
  updated_at: Date;
  /** Set when removed: the feed shows it cancelled. */
  deleted_at: Date | null;
  location_name: string;
  timezone: string;
  role_name: string;
  staff_name: string;
}

export interface DepartureRow {
  entry_id: string;
  revision: number;
  start_time: Date;
  end_time: Date;
  departed_at: Date;
  location_name: string;
  timezone: string;
}

export interface TimeOffRow {
  id: string;
  revision: number;
  start_time: Date;
  end_time: Date;
  is_all_day: boolean;
  timezone: string;
  status: "approved" | "cancelled";
  updated_at: Date;
  staff_name: string;
}

/** The feed's window and how long removals stay in it. */
export interface FeedWindow {
  from: Date;
  to: Date;
  removedSince: Date;
}

const subjectColumn = (subject: FeedSubject) => ("staffId" in subject ? "staff_id" : "location_id");
const subjectId = (subject: FeedSubject) => ("staffId" in subject ? subject.staffId : subject.locationId);

/** Whether the subject exists in the organization (a staff member who has left still has a calendar). */
export async function subjectExists(manager: EntityManager, organizationId: string, subject: FeedSubject): Promise<boolean> {
  const table = "staffId" in subject ? "staff_members" : "locations";
  const rows = await manager.query(`SELECT 1 FROM ${table} WHERE organization_id = $1 AND id = $2`, [organizationId, subjectId(subject)]);
  return rows.length > 0;
}

/** Stores the subject's feed with a new secret hash, replacing the old one in place (the feed keeps its id). */
export async function upsertFeed(manager: EntityManager, organizationId: string, subject: FeedSubject, secretHash: string, now: Date): Promise<string> {
  const column = subjectColumn(subject);
  const [row]: { id: string }[] = await manager.query(
    `INSERT INTO calendar_feeds (organization_id, ${column}, secret_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (organization_id, ${column}) WHERE ${column} IS NOT NULL DO UPDATE SET secret_hash = EXCLUDED.secret_hash, updated_at = EXCLUDED.updated_at
     RETURNING id`,
    [organizationId, subjectId(subject), secretHash, now],
  );
  return row.id;
}

/** Deletes the subject's feed; false when it had none. */
export async function deleteFeed(manager: EntityManager, organizationId: string, subject: FeedSubject): Promise<boolean> {
  const rows = await updateReturning(manager, `DELETE FROM calendar_feeds WHERE organization_id = $1 AND ${subjectColumn(subject)} = $2 RETURNING id`, [
    organizationId,
    subjectId(subject),
  ]);
  return rows.length > 0;
}

/** The feed whose secret hashes to `secretHash`, with its subject's name. */
export async function selectFeedBySecret(db: DataSource, secretHash: string): Promise<FeedRow | undefined> {
  const [row]: FeedRow[] = await db.query(
    `SELECT f.id, f.organization_id, f.staff_id, f.location_id, COALESCE(s.name, l.name) AS name
       FROM calendar_feeds f
       LEFT JOIN staff_members s ON s.organization_id = f.organization_id AND s.id = f.staff_id
       LEFT JOIN locations l ON l.organization_id = f.organization_id AND l.id = f.location_id
      WHERE f.secret_hash = $1`,
    [secretHash],
  );
  return row;
}

/**
 * Published entries of the feed's subject overlapping the window, and those removed since
 * `removedSince`: live ones by their span (the range indexes of a worker's and a location's
 * entries), removed ones by when (see the IndexScheduleEntriesForCalendarFeeds migration).
 */
export function selectEntries(db: DataSource, feed: FeedRow, window: FeedWindow): Promise<EntryRow[]> {
  const subject = feed.staff_id ? "worker_id" : "location_id";
  const ofSubject = `SELECT * FROM schedule_entries WHERE organization_id = $1 AND ${subject} = $2`;
  return db.query(
    `SELECT e.id, e.revision, e.start_time, e.end_time, e.note, e.updated_at, e.deleted_at,
            l.name AS location_name, l.timezone, r.name AS role_name, s.name AS staff_name
       FROM (${ofSubject} AND deleted_at IS NULL AND ${spanOverlaps("start_time", "end_time", "$3", "$4", "tstzrange(start_time, end_time)")}
             UNION ALL
             ${ofSubject} AND deleted_at >= $5 AND start_time < $4 AND end_time > $3) e
       JOIN locations l ON l.organization_id = e.organization_id AND l.id = e.location_id
       JOIN roles r ON r.organization_id = e.organization_id AND r.id = e.role_id
       JOIN staff_members s ON s.organization_id = e.organization_id AND s.id = e.worker_id
      ORDER BY e.start_time, e.id`,
    [feed.organization_id, feed.staff_id ?? feed.location_id, window.from, window.to, window.removedSince],
  );
}

/** Entries that left the feed's subject (given to another person, moved to another location) since `removedSince`, the latest departure of each. */
export function selectDepartures(db: DataSource, feed: FeedRow, window: FeedWindow): Promise<DepartureRow[]> {
  const subject = feed.staff_id ? "d.staff_id" : "d.location_id";
  return db.query(
    `SELECT DISTINCT ON (d.entry_id) d.entry_id, d.revision, d.start_time, d.end_time, d.departed_at, l.name AS location_name, l.timezone
       FROM schedule_entry_departures d
       JOIN locations l ON l.organization_id = d.organization_id AND l.id = d.location_id
      WHERE d.organization_id = $1 AND ${subject} = $2 AND d.departed_at >= $5
        AND d.start_time < $4 AND d.end_time > $3
      ORDER BY d.entry_id, d.revision DESC`,
    [feed.organization_id, feed.staff_id ?? feed.location_id, window.from, window.to, window.removedSince],
  );
}

/**
 * Approved time off overlapping the window, and approved time off cancelled since `removedSince`:
 * a staff member's own, or a location's (requests made for it, and those of its staff made for no location).
 */
export function selectTimeOff(db: DataSource, feed: FeedRow, window: FeedWindow): Promise<TimeOffRow[]> {
  const subject = feed.staff_id
    ? "t.worker_id = $2"
    : `(t.location_id = $2 OR (t.location_id IS NULL AND EXISTS (
         SELECT 1 FROM staff_locations sl WHERE sl.organization_id = t.organization_id AND sl.staff_id = t.worker_id AND sl.location_id = $2)))`;
  return db.query(
    `SELECT t.id, t.revision, t.start_time, t.end_time, t.is_all_day, t.timezone, t.status, t.updated_at, s.name AS staff_name
       FROM time_off_requests t
       JOIN staff_members s ON s.organization_id = t.organization_id AND s.id = t.worker_id
      WHERE t.organization_id = $1 AND ${subject}
        AND t.start_time < $4 AND t.end_time > $3
        AND (t.status = 'approved' OR (t.status = 'cancelled' AND t.decided_at IS NOT NULL AND t.cancelled_at >= $5))
      ORDER BY t.start_time, t.id`,
    [feed.organization_id, feed.staff_id ?? feed.location_id, window.from, window.to, window.removedSince],
  );
}
