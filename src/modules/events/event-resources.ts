/** Where an event's resource is read: a REST GET path and the values of its parameters (`org` aside). */
export interface ResourceRead {
  path: string;
  params: Record<string, string>;
}

const ORG = "/api/organizations/{org}";

type Row = Record<string, unknown>;
const one = (path: string, params: (row: Row) => Record<string, unknown>) => ({ path, params });

/**
 * The REST GET that answers each evented table's resource: an event's `data.object` is that GET's
 * answer. A break is part of its shift, so the time clock's break events carry the shift. Tables
 * missing here (locked days, ledger rows, claims, a schedule's publication) have no GET of their
 * own: their object is the stored row in API names.
 */
const READS: Record<string, { path: string; params: (row: Row) => Record<string, unknown> }> = {
  shifts: one("/api/timesheets/{id}", (r) => ({ id: r.id })),
  shift_breaks: one("/api/timesheets/{id}", (r) => ({ id: r.shift_id })),
  locations: one(`${ORG}/locations/{id}`, (r) => ({ id: r.id })),
  roles: one(`${ORG}/roles/{id}`, (r) => ({ id: r.id })),
  staff_members: one(`${ORG}/staff/{id}`, (r) => ({ id: r.id })),
  webhook_endpoints: one(`${ORG}/webhook-endpoints/{id}`, (r) => ({ id: r.id })),
  break_types: one(`${ORG}/locations/{id}/breaks/{breakId}`, (r) => ({ id: r.location_id, breakId: r.id })),
  schedule_entries: one(`${ORG}/locations/{locationId}/schedules/{id}`, (r) => ({ locationId: r.location_id, id: r.id })),
  shift_templates: one(`${ORG}/locations/{locationId}/shift-templates/{id}`, (r) => ({ locationId: r.location_id, id: r.id })),
  open_shifts: one(`${ORG}/locations/{locationId}/open-shifts/{id}`, (r) => ({ locationId: r.location_id, id: r.id })),
  time_off_policies: one(`${ORG}/policies/{id}`, (r) => ({ id: r.id })),
  availability_rules: one(`${ORG}/staff/{staffId}/availability/{id}`, (r) => ({ staffId: r.worker_id, id: r.id })),
  time_off_requests: one(`${ORG}/time-off-requests/{id}`, (r) => ({ id: r.id })),
};

/** The GET paths event objects are read with. */
export const RESOURCE_PATHS = new Set(Object.values(READS).map((r) => r.path));

/** The GET of the resource a stored row belongs to; undefined when it has none. */
export function resourceOf(table: string, row: Row): ResourceRead | undefined {
  const read = READS[table];
  if (!read) return undefined;
  const params = read.params(row);
  if (Object.values(params).some((v) => typeof v !== "string")) return undefined;
  return { path: read.path, params: params as Record<string, string> };
}

/** The resource's address, the same for every event of one resource (its GET path with the values in). */
export function resourceKey(read: ResourceRead): string {
  return read.path.replace(/\{(\w+)\}/g, (whole, name: string) => read.params[name] ?? whole);
}
