import { accessRoutes } from "../modules/access/access.routes";
import { auditRoutes } from "../modules/audit/audit.routes";
import { eventRoutes } from "../modules/events/event.routes";
import { webhookRoutes } from "../modules/webhooks/webhook.routes";
import { locationRoutes } from "../modules/locations/location.routes";
import { organizationRoutes } from "../modules/organizations/organization.routes";
import { roleRoutes } from "../modules/roles/role.routes";
import { staffRoutes } from "../modules/staff/staff.routes";
import { scheduleRestRoutes } from "../modules/schedules/schedules.module";
import { timesheetRawRoutes, timesheetRestRoutes } from "../modules/timesheets/timesheets.module";
import { timeOffRestRoutes } from "../modules/timeoff/timeoff.module";
import { complianceRestRoutes } from "../modules/compliance/compliance.module";
import { RawRestRoute } from "./raw-routes";
import { RestRoute } from "./route";

/** The REST route table: every /api path, gathered from the modules. */
export const restRoutes: RestRoute[] = [
  ...organizationRoutes,
  ...accessRoutes,
  ...locationRoutes,
  ...roleRoutes,
  ...staffRoutes,
  ...auditRoutes,
  ...eventRoutes,
  ...webhookRoutes,
  ...timesheetRestRoutes,
  ...scheduleRestRoutes,
  ...timeOffRestRoutes,
  ...complianceRestRoutes,
];

/** Paths answered by handlers of their own (streamed downloads), authenticated and documented like the rest. */
export const rawRestRoutes: RawRestRoute[] = [...timesheetRawRoutes];
