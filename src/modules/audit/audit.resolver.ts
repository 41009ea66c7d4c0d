import { Args, Ctx, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { AuditEvent, AuditEventArgs, AuditEventConnection } from "./audit.types";

@Resolver(() => AuditEvent)
export class AuditResolver {
  @Query(() => AuditEventConnection, { description: "Every change in the organization, newest first; filter by record, actor and time" })
  @Requires("audit:read")
  auditEvents(@Args() args: AuditEventArgs, @Ctx() ctx: RequestContext): Promise<Page<AuditEvent>> {
    return ctx.services.audit.list(actorOf(ctx), args);
  }
}
