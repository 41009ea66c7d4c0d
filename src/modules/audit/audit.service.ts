import { Actor } from "../../auth/actor";
import { ServiceDeps } from "../../common/services";
import { isUuid } from "../../common/ids";
import { decodeCursor, Page, pageSize, toPage } from "../../common/pagination";
import { parseTimestamp } from "../../common/time";
import { invalidField } from "../../errors/app-error";
import { AuditEvent, AuditEventArgs } from "./audit.types";

interface AuditRow {
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

/** Reads the audit trail the database writes (see the CreateAuditTrail migration), newest first. */
export class AuditService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(actor: Actor, args: AuditEventArgs): Promise<Page<AuditEvent>> {
    const limit = pageSize(args.first);
    const where = ["organization_id = $1"];
    const params: unknown[] = [actor.organizationId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace("?", `$${params.length}`));
    };
    for (const field of ["actorStaffId", "actorApiKeyId"] as const) {
      const value = args[field];
      if (value === undefined || value === null) continue;
      if (!isUuid(value)) throw invalidField(field, `${field} must be an id`);
      add(field === "actorStaffId" ? "actor_staff_id = ?" : "actor_api_key_id = ?", value);
    }
    if (args.resourceType) add("resource_type = ?", args.resourceType);
    if (args.resourceId) add("resource_id = ?", args.resourceId);
    if (args.from) add("occurred_at >= ?", parseTimestamp(args.from, "UTC", "from"));
    if (args.to) add("occurred_at < ?", parseTimestamp(args.to, "UTC", "to"));
    if (args.after) {
      const [at, id] = decodeCursor(args.after, "timestamp");
      params.push(at, id);
      where.push(`(occurred_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    params.push(limit + 1);
    // The trail may lag a few seconds (a client's own writes excepted): a replica answers when one is healthy.
    const rows: AuditRow[] = await (await this.deps.reads.readerFor(actor)).query(
      `SELECT id, occurred_at, actor_staff_id, actor_api_key_id, request_id, resource_type, resource_id, action, before, after
         FROM audit_events WHERE ${where.join(" AND ")}
        ORDER BY occurred_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    const page = toPage(rows, limit, (r) => [r.occurred_at.toISOString(), r.id]);
    return {
      pageInfo: page.pageInfo,
      nodes: page.nodes.map((r) => ({
        id: r.id,
        occurredAt: r.occurred_at,
        actorStaffId: r.actor_staff_id,
        actorApiKeyId: r.actor_api_key_id,
        requestId: r.request_id,
        resourceType: r.resource_type,
        resourceId: r.resource_id,
        action: r.action,
        before: r.before,
        after: r.after,
      })),
    };
  }
}
