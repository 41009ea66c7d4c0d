import { EntityManager, SelectQueryBuilder } from "typeorm";
import { updateReturning } from "../../database/returning";
import { spanOverlaps } from "../../database/spans";
import { ScheduleBreak, ScheduleDraft, ScheduleEntry } from "./schedule.entity";
import { findOneBy, findWhere } from "../../common/entity-reads";

/** The SQL of schedules: entries, drafts, their planned breaks, and what publishing and removing touch. */

/** A planned break before it is stored. */
export type BreakPlan = Pick<ScheduleBreak, "typeId" | "name" | "paid" | "durationMinutes" | "startsAt">;

/** Everything a worker's planned shift consists of, validated. */
export interface ShiftPlan {
  staffId: string;
  roleId: string;
  startsAt: Date;
  endsAt: Date;
  note: string | null;
  breaks: BreakPlan[];
  /** The shift template it was made from. */
  templateId?: string | null;
}

/** Stores a new published entry with its breaks (the overlap constraint refuses a double booking). */
export async function insertEntry(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  plan: ShiftPlan,
  openShiftId: string | null = null,
): Promise<ScheduleEntry> {
  const repo = manager.getRepository(ScheduleEntry);
  const { breaks, ...fields } = plan;
  const entry = await repo.save(repo.create({ organizationId, locationId, ...fields, openShiftId, deletedAt: null }));
  // A new entry has no breaks to replace.
  await insertBreaks(manager, organizationId, [{ owner: { entryId: entry.id }, breaks }]);
  return entry;
}

/** Replaces the planned breaks of an entry or a draft. */
export async function replaceBreaks(
  manager: EntityManager,
  organizationId: string,
  owner: { entryId: string } | { draftId: string },
  breaks: BreakPlan[],
): Promise<void> {
  await manager.getRepository(ScheduleBreak).delete({ organizationId, ...("entryId" in owner ? { entryId: owner.entryId } : { draftId: owner.draftId }) });
  await insertBreaks(manager, organizationId, [{ owner, breaks }]);
}

/** Breaks written per INSERT: well within PostgreSQL's 65,535 parameters at ten columns each. */
const BREAKS_PER_INSERT = 1000;

/** Stores planned breaks of entries or drafts that have none yet, in order, a thousand rows per statement. */
export async function insertBreaks(
  manager: EntityManager,
  organizationId: string,
  owned: { owner: { entryId: string } | { draftId: string }; breaks: BreakPlan[] }[],
): Promise<void> {
  const rows = owned.flatMap(({ owner, breaks }) => breaks.map((b, position) => ({ ...b, organizationId, entryId: null, draftId: null, ...owner, position })));
  for (let at = 0; at < rows.length; at += BREAKS_PER_INSERT) await manager.getRepository(ScheduleBreak).insert(rows.slice(at, at + BREAKS_PER_INSERT));
}

/** The planned breaks of many entries or drafts, each list in order. */
export async function breaksOf(
  manager: EntityManager,
  organizationId: string,
  owner: "entryId" | "draftId",
  ids: readonly string[],
): Promise<ScheduleBreak[][]> {
  const column = owner === "entryId" ? "entry_id" : "draft_id";
  const rows = await findWhere(manager, ScheduleBreak, `organization_id = $1 AND ${column} = ANY($2::uuid[])`, [organizationId, [...ids]], {
    orderBy: "position",
  });
  const groups = new Map<string, ScheduleBreak[]>();
  for (const row of rows) {
    const id = row[owner]!;
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  return ids.map((id) => groups.get(id) ?? []);
}

/** Moves published drafts' planned breaks to their entries, replacing the entries' own. */
export async function moveDraftBreaks(manager: EntityManager, organizationId: string, moves: { draftId: string; entryId: string }[]): Promise<void> {
  if (!moves.length) return;
  const entryIds = moves.map((m) => m.entryId);
  await manager.query("DELETE FROM schedule_breaks WHERE organization_id = $1 AND entry_id = ANY($2::uuid[])", [organizationId, entryIds]);
  await manager.query(
    `UPDATE schedule_breaks b SET entry_id = m.entry_id, draft_id = NULL
       FROM unnest($2::uuid[], $3::uuid[]) AS m(draft_id, entry_id)
      WHERE b.organization_id = $1 AND b.draft_id = m.draft_id`,
    [organizationId, moves.map((m) => m.draftId), entryIds],
  );
}

/** Writes changed entries' worker, role, times, note and template in one statement, setting each one's `updatedAt` as stored. */
export async function updateEntryPlans(manager: EntityManager, organizationId: string, entries: ScheduleEntry[]): Promise<void> {
  if (!entries.length) return;
  const rows = await updateReturning<{ id: string; updated_at: Date }>(
    manager,
    `UPDATE schedule_entries e
        SET worker_id = m.worker_id, role_id = m.role_id, start_time = m.start_time, end_time = m.end_time,
            note = m.note, template_id = m.template_id, updated_at = CURRENT_TIMESTAMP
       FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::timestamptz[], $6::timestamptz[], $7::text[], $8::uuid[])
            AS m(id, worker_id, role_id, start_time, end_time, note, template_id)
      WHERE e.organization_id = $1 AND e.id = m.id
  RETURNING e.id, e.updated_at`,
    [
      organizationId,
      entries.map((e) => e.id),
      entries.map((e) => e.staffId),
      entries.map((e) => e.roleId),
      entries.map((e) => e.startsAt),
      entries.map((e) => e.endsAt),
      entries.map((e) => e.note),
      entries.map((e) => e.templateId ?? null),
    ],
  );
  const updatedAt = new Map(rows.map((r) => [r.id, r.updated_at]));
  for (const entry of entries) entry.updatedAt = new Date(updatedAt.get(entry.id)!);
}

export async function deleteDrafts(manager: EntityManager, organizationId: string, draftIds: string[]): Promise<void> {
  await manager.query("DELETE FROM schedule_drafts WHERE organization_id = $1 AND id = ANY($2::uuid[])", [organizationId, draftIds]);
}

/** Publishing moves many entries at once: the no-double-booking check waits for the whole move. */
export async function deferOverlapCheck(manager: EntityManager): Promise<void> {
  await manager.query("SET CONSTRAINTS ex_schedule_entries_worker_overlap DEFERRED");
}

export async function checkOverlapNow(manager: EntityManager): Promise<void> {
  await manager.query("SET CONSTRAINTS ex_schedule_entries_worker_overlap IMMEDIATE");
}

/** The location's enabled, active break types among `ids` (valid ids only). */
export async function selectUsableBreakTypes(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  ids: string[],
): Promise<{ id: string; name: string; paid: boolean; duration_minutes: number }[]> {
  if (!ids.length) return [];
  return manager.query(
    `SELECT id, name, paid, duration_minutes FROM break_types
      WHERE organization_id = $1 AND location_id = $2 AND id = ANY($3::uuid[]) AND deleted_at IS NULL AND active AND enabled`,
    [organizationId, locationId, ids],
  );
}

/** The first plan (its index) overlapping an approved time-off request of its staff member, with that request's times. */
export async function selectApprovedTimeOffOverlap(
  manager: EntityManager,
  organizationId: string,
  plans: Pick<ShiftPlan, "staffId" | "startsAt" | "endsAt">[],
): Promise<{ index: number; startTime: Date; endTime: Date } | undefined> {
  const [row]: { i: string; start_time: Date; end_time: Date }[] = await manager.query(
    `SELECT p.i, t.start_time, t.end_time
       FROM unnest($2::uuid[], $3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY AS p(staff_id, s, e, i)
       JOIN time_off_requests t
         ON t.organization_id = $1 AND t.worker_id = p.staff_id AND t.status = 'approved'
        AND ${spanOverlaps("t.start_time", "t.end_time", "p.s", "p.e")}
      ORDER BY p.i
      LIMIT 1`,
    [organizationId, plans.map((p) => p.staffId), plans.map((p) => p.startsAt), plans.map((p) => p.endsAt)],
  );
  return row && { index: Number(row.i) - 1, startTime: new Date(row.start_time), endTime: new Date(row.end_time) };
}

/** Locks open shifts in id order, the order acceptance takes them in. */
export async function lockOpenShifts(manager: EntityManager, organizationId: string, openShiftIds: string[]): Promise<void> {
  await manager.query("SELECT id FROM open_shifts WHERE organization_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE", [organizationId, openShiftIds]);
}

/** Accepted preferences of removed entries become REMOVED; answers their open shifts, once per preference. */
export async function releaseAcceptedPreferences(manager: EntityManager, organizationId: string, entryIds: string[], now: Date): Promise<string[]> {
  const released = await updateReturning<{ open_shift_id: string }>(
    manager,
    `UPDATE open_shift_preferences SET status = 'REMOVED', updated_at = $3
      WHERE organization_id = $1 AND schedule_entry_id = ANY($2::uuid[]) AND status = 'ACCEPTED'
      RETURNING open_shift_id`,
    [organizationId, entryIds, now],
  );
  return released.map((r) => r.open_shift_id);
}

/** Each open shift counts one accepted worker less per time it is named. */
export async function lowerAcceptedCounts(manager: EntityManager, organizationId: string, openShiftIds: string[], now: Date): Promise<void> {
  await manager.query(
    `UPDATE open_shifts o SET accepted_count = o.accepted_count - r.n, updated_at = $3
       FROM (SELECT id, count(*)::int AS n FROM unnest($2::uuid[]) AS id GROUP BY id) r
      WHERE o.organization_id = $1 AND o.id = r.id`,
    [organizationId, openShiftIds, now],
  );
}

export async function softDeleteEntries(manager: EntityManager, organizationId: string, entryIds: string[], now: Date): Promise<void> {
  await manager.query("UPDATE schedule_entries SET deleted_at = $3, updated_at = $3 WHERE organization_id = $1 AND id = ANY($2::uuid[])", [
    organizationId,
    entryIds,
    now,
  ]);
}

export async function deleteDraftsOfEntries(manager: EntityManager, organizationId: string, entryIds: string[]): Promise<void> {
  await manager.query("DELETE FROM schedule_drafts WHERE organization_id = $1 AND entry_id = ANY($2::uuid[])", [organizationId, entryIds]);
}

/** A location's live entries (alias `r`), to narrow, order or page. */
export function locationEntries(manager: EntityManager, organizationId: string, locationId: string): SelectQueryBuilder<ScheduleEntry> {
  return manager
    .getRepository(ScheduleEntry)
    .createQueryBuilder("r")
    .where("r.organization_id = :org AND r.location_id = :loc AND r.deleted_at IS NULL", { org: organizationId, loc: locationId });
}

/** A location's drafts (alias `r`), to narrow, order or page. */
export function locationDrafts(manager: EntityManager, organizationId: string, locationId: string): SelectQueryBuilder<ScheduleDraft> {
  return manager
    .getRepository(ScheduleDraft)
    .createQueryBuilder("r")
    .where("r.organization_id = :org AND r.location_id = :loc", { org: organizationId, loc: locationId });
}

/** Narrows entries or drafts (alias `r`) to a staff member's and a role's, where given. */
export function whereStaffAndRole(
  query: SelectQueryBuilder<ScheduleEntry | ScheduleDraft>,
  staffId: string | null | undefined,
  roleId: string | null | undefined,
): void {
  if (staffId) query.andWhere("r.worker_id = :staffId", { staffId });
  if (roleId) query.andWhere("r.role_id = :role", { role: roleId });
}

/** A live entry of the location, locked until commit with `lock`. */
export async function selectEntry(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  id: string,
  lock: boolean,
): Promise<ScheduleEntry | null> {
  const found = await findWhere(
    manager,
    ScheduleEntry,
    "organization_id = $1 AND location_id = $2 AND id = $3 AND deleted_at IS NULL",
    [organizationId, locationId, id],
    {
      lock: lock ? "update" : undefined,
    },
  );
  return found[0] ?? null;
}

/** Live entries by id, in any order (an unknown id has none). */
export function selectEntries(manager: EntityManager, organizationId: string, ids: string[]): Promise<ScheduleEntry[]> {
  if (!ids.length) return Promise.resolve([]);
  return findWhere(manager, ScheduleEntry, "organization_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL", [organizationId, ids]);
}

/** A draft of the location, locked until commit with `lock`. */
export function selectDraft(manager: EntityManager, organizationId: string, locationId: string, id: string, lock: boolean): Promise<ScheduleDraft | null> {
  return findOneBy(manager, ScheduleDraft, { organizationId, locationId, id }, { lock: lock ? "update" : undefined });
}

/** Live entries by id, locked until commit (in id order, so that two publications wait rather than deadlock). */
export function lockEntries(manager: EntityManager, organizationId: string, ids: string[]): Promise<ScheduleEntry[]> {
  return findWhere(manager, ScheduleEntry, "organization_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL", [organizationId, ids], {
    orderBy: "id",
    lock: "update",
  });
}

/** How many entries of a template a local day has. */
export interface TemplateDayCount {
  date: string;
  templateId: string;
  count: number;
}

/** Entries and drafts per local day and template, as publishing would leave them (see `countByDayAndTemplate`). */
export async function selectCountsByDayAndTemplate(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  zone: string,
  bounds: { from: Date; to: Date },
): Promise<TemplateDayCount[]> {
  const rows: { day: string; template_id: string; n: number }[] = await manager.query(
    `SELECT to_char(start_time AT TIME ZONE $3, 'YYYY-MM-DD') AS day, template_id, count(*)::int AS n FROM (
        SELECT e.start_time, e.template_id FROM schedule_entries e
         WHERE e.organization_id = $1 AND e.location_id = $2 AND e.deleted_at IS NULL AND e.template_id IS NOT NULL
           AND e.start_time >= $4 AND e.start_time < $5
           AND NOT EXISTS (SELECT 1 FROM schedule_drafts d WHERE d.organization_id = $1 AND d.entry_id = e.id)
        UNION ALL
        SELECT d.start_time, d.template_id FROM schedule_drafts d
         WHERE d.organization_id = $1 AND d.location_id = $2 AND d.action <> 'REMOVE' AND d.template_id IS NOT NULL
           AND d.start_time >= $4 AND d.start_time < $5
      ) planned GROUP BY 1, 2`,
    [organizationId, locationId, zone, bounds.from, bounds.to],
  );
  return rows.map((r) => ({ date: r.day, templateId: r.template_id, count: r.n }));
}

/** A draft that adds an entry, planned by a generation. */
export interface GeneratedDraft extends ShiftPlan {
  generationId: string;
}

/**
 * Stores many ADD drafts with their breaks in a few statements (a generation writes hundreds):
 * answers their ids in order.
 */
export async function insertAddDrafts(manager: EntityManager, organizationId: string, locationId: string, drafts: GeneratedDraft[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < drafts.length; i += 1000) {
    const slice = drafts.slice(i, i + 1000);
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO schedule_drafts (organization_id, location_id, action, worker_id, role_id, start_time, end_time, note, template_id, generation_id)
       SELECT $1, $2, 'ADD', w, r, s, e, NULL, t, g
         FROM unnest($3::uuid[], $4::uuid[], $5::timestamptz[], $6::timestamptz[], $7::uuid[], $8::uuid[]) WITH ORDINALITY AS d(w, r, s, e, t, g, n)
        ORDER BY n
       RETURNING id`,
      [
        organizationId,
        locationId,
        slice.map((d) => d.staffId),
        slice.map((d) => d.roleId),
        slice.map((d) => d.startsAt),
        slice.map((d) => d.endsAt),
        slice.map((d) => d.templateId ?? null),
        slice.map((d) => d.generationId),
      ],
    );
    ids.push(...rows.map((r) => r.id));
  }
  await insertBreaks(
    manager,
    organizationId,
    drafts.map((d, k) => ({ owner: { draftId: ids[k] }, breaks: d.breaks })),
  );
  return ids;
}

/** Deletes a location's drafts that start in the range (a generation replacing them). */
export async function deleteDraftsWithin(manager: EntityManager, organizationId: string, locationId: string, bounds: { from: Date; to: Date }): Promise<void> {
  await manager.query("DELETE FROM schedule_drafts WHERE organization_id = $1 AND location_id = $2 AND start_time >= $3 AND start_time < $4", [
    organizationId,
    locationId,
    bounds.from,
    bounds.to,
  ]);
}

/** Gives each entry to its new worker in one statement (a swap moves two). */
export async function updateEntryWorkers(
  manager: EntityManager,
  organizationId: string,
  moves: { entryId: string; staffId: string }[],
  now: Date,
): Promise<void> {
  await manager.query(
    `UPDATE schedule_entries e SET worker_id = m.staff_id, updated_at = $4
       FROM unnest($2::uuid[], $3::uuid[]) AS m(entry_id, staff_id)
      WHERE e.organization_id = $1 AND e.id = m.entry_id AND e.deleted_at IS NULL`,
    [organizationId, moves.map((m) => m.entryId), moves.map((m) => m.staffId), now],
  );
}

/** A shift of one of the people, planned anywhere: a published entry or a draft that adds or changes one. */
export interface PlannedShiftRow {
  staffId: string;
  locationId: string;
  roleId: string;
  templateId: string | null;
  startsAt: Date;
  endsAt: Date;
  draft: boolean;
}

/** Whose planned shifts, starting when, and which location's drafts are about to be replaced (none: null). */
export interface PlannedAround {
  staffIds: string[];
  bounds: { from: Date; to: Date };
  replacedLocationId: string | null;
}

/**
 * The people's published entries and drafts that start in [from, to): everything a new shift must
 * fit around. Without `replacedLocationId`'s drafts when they are about to be replaced.
 */
export async function selectPlannedShifts(manager: EntityManager, organizationId: string, around: PlannedAround): Promise<PlannedShiftRow[]> {
  const { staffIds, bounds, replacedLocationId } = around;
  const rows: { worker_id: string; location_id: string; role_id: string; template_id: string | null; start_time: Date; end_time: Date; draft: boolean }[] =
    await manager.query(
      `SELECT worker_id, location_id, role_id, template_id, start_time, end_time, false AS draft FROM schedule_entries
      WHERE organization_id = $1 AND worker_id = ANY ($2::uuid[]) AND deleted_at IS NULL AND start_time >= $3 AND start_time < $4
        AND NOT EXISTS (SELECT 1 FROM schedule_drafts d WHERE d.organization_id = $1 AND d.entry_id = schedule_entries.id
                          AND (d.location_id IS DISTINCT FROM $5::uuid))
     UNION ALL
     SELECT worker_id, location_id, role_id, template_id, start_time, end_time, true FROM schedule_drafts
      WHERE organization_id = $1 AND worker_id = ANY ($2::uuid[]) AND action <> 'REMOVE' AND start_time >= $3 AND start_time < $4
        AND location_id IS DISTINCT FROM $5::uuid`,
      [organizationId, staffIds, bounds.from, bounds.to, replacedLocationId],
    );
  return rows.map((r) => ({
    staffId: r.worker_id,
    locationId: r.location_id,
    roleId: r.role_id,
    templateId: r.template_id,
    startsAt: new Date(r.start_time),
    endsAt: new Date(r.end_time),
    draft: r.draft,
  }));
}
