import type { DomainModule } from "../module";
import { AuditResolver } from "./audit.resolver";
import { auditRoutes } from "./audit.routes";
import { AuditService } from "./audit.service";

declare module "../../common/services" {
  interface Services {
    audit: AuditService;
  }
}

/** The audit log of every change. */
export const auditModule: DomainModule = {
  services: (deps) => ({ audit: new AuditService(deps) }),
  resolvers: [AuditResolver],
  restRoutes: auditRoutes,
};
