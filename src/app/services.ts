import { TokenSigner } from "../auth/tokens";
import { AccessService } from "../modules/access/access.service";
import { AuditService } from "../modules/audit/audit.service";
import { LocationService } from "../modules/locations/location.service";
import { OrganizationSeeder, OrganizationService } from "../modules/organizations/organization.service";
import { PlatformSecrets } from "../modules/organizations/platform-secrets";
import { RoleService } from "../modules/roles/role.service";
import { StaffService } from "../modules/staff/staff.service";
import { createTimesheetServices } from "../modules/timesheets/timesheets.module";
import { createScheduleServices } from "../modules/schedules/schedules.module";
import { createTimeOffServices, seedTimeOff } from "../modules/timeoff/timeoff.module";
import { createComplianceServices } from "../modules/compliance/compliance.module";
import { EventService } from "../modules/events/event.service";
import { WebhookService } from "../modules/webhooks/webhook.service";
import { ServiceDeps } from "./deps";

/** Every domain service, built once per process and shared by GraphQL, REST and the CLIs. */
export function createServices(deps: ServiceDeps, platform: PlatformSecrets) {
  const access = new AccessService(deps, new TokenSigner(platform.jwtSecret, deps.config.tokenTtlSeconds));
  const seeders: OrganizationSeeder[] = [seedTimeOff];
  const timeOff = createTimeOffServices(deps);
  const services = {
    access,
    organizations: new OrganizationService(deps, platform, access, seeders),
    locations: new LocationService(deps),
    roles: new RoleService(deps),
    staff: new StaffService(deps, [timeOff.workerPolicies.onStaffChanged]),
    audit: new AuditService(deps),
    events: new EventService(deps),
    webhooks: new WebhookService(deps),
    ...createTimesheetServices(deps),
    ...createScheduleServices(deps),
    ...timeOff,
    ...createComplianceServices(deps),
  };
  return services;
}

export type Services = ReturnType<typeof createServices>;
