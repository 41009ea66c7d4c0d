import { DataSource } from "typeorm";

/** The SQL of the audit trail the database writes (see the CreateAuditTrail migration). */

export interface AuditRow {
  id: string;
  occurred_at: Date;
  actor_staff_id: string | null;
  actor_api_key_id: string | null;
  request_id: string | null;
  resource_type: string;
  resource_id: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** Which entries a page holds; each filter given narrows it. `before` is the (time, id) of the last entry read. */
export interface AuditFilter {
  actorStaffId?: string;
  actorApiKeyId?: string;
  resourceType?: string;
  resourceId?: string;
  from?: Date;
  to?: Date;
  before?: [string | number, string];
}

/** Up to `take` entries of the organization's trail, newest first. */
export function auditRows(reader: DataSource, organizationId: string, filter: AuditFilter, take: number): Promise<AuditRow[]> {
  const where = ["organization_id = $1"];
  const params: unknown[] = [organizationId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace("?", `$${params.length}`));
  };
  if (filter.actorStaffId !== undefined) add("actor_staff_id = ?", filter.actorStaffId);
  if (filter.actorApiKeyId !== undefined) add("actor_api_key_id = ?", filter.actorApiKeyId);
  if (filter.resourceType !== undefined) add("resource_type = ?", filter.resourceType);
  if (filter.resourceId !== undefined) add("resource_id = ?", filter.resourceId);
  if (filter.from !== undefined) add("occurred_at >= ?", filter.from);
  if (filter.to !== undefined) add("occurred_at < ?", filter.to);
  if (filter.before) {
    params.push(...filter.before);
    where.push(`(occurred_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(take);
  return reader.query(
    `SELECT id, occurred_at, actor_staff_id, actor_api_key_id, request_id, resource_type, resource_id, action, before, after
       FROM audit_events WHERE ${where.join(" AND ")}
      ORDER BY occurred_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
}
