import { Actor } from "../../auth/actor";
import { ServiceDeps } from "../../common/services";
import { isUuid } from "../../common/ids";
import { Page, timeOrderedPage } from "../../common/pagination";
import { parseTimestamp } from "../../common/time";
import { invalidField } from "../../errors/app-error";
import { AuditFilter, auditRows } from "./audit.store";
import { AuditEvent, AuditEventArgs } from "./audit.types";

/** Reads the audit trail the database writes (see the CreateAuditTrail migration), newest first. */
export class AuditService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(actor: Actor, args: AuditEventArgs): Promise<Page<AuditEvent>> {
    const filter: AuditFilter = {};
    for (const field of ["actorStaffId", "actorApiKeyId"] as const) {
      const value = args[field];
      if (value === undefined || value === null) continue;
      if (!isUuid(value)) throw invalidField(field, `${field} must be an id`);
      filter[field] = value;
    }
    if (args.resourceType) filter.resourceType = args.resourceType;
    if (args.resourceId) filter.resourceId = args.resourceId;
    if (args.from) filter.from = parseTimestamp(args.from, "UTC", "from");
    if (args.to) filter.to = parseTimestamp(args.to, "UTC", "to");
    // The trail may lag a few seconds (a client's own writes excepted): a replica answers when one is healthy.
    const reader = await this.deps.reads.readerFor(actor);
    const page = await timeOrderedPage(
      args,
      (count, before) => auditRows(reader, actor.organizationId, { ...filter, before }, count),
      (r) => [r.occurred_at, r.id],
    );
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
