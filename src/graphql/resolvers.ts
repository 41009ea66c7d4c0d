import { NonEmptyArray } from "type-graphql";
import { AccessResolver } from "../modules/access/access.resolver";
import { AuditResolver } from "../modules/audit/audit.resolver";
import { EventResolver } from "../modules/events/event.resolver";
import { EventSubscriptionResolver } from "../modules/events/event-subscription.resolver";
import { WebhookResolver } from "../modules/webhooks/webhook.resolver";
import { LocationResolver } from "../modules/locations/location.resolver";
import { OrganizationResolver } from "../modules/organizations/organization.resolver";
import { RoleResolver } from "../modules/roles/role.resolver";
import { StaffResolver } from "../modules/staff/staff.resolver";
import { scheduleResolvers } from "../modules/schedules/schedules.module";
import { timesheetResolvers } from "../modules/timesheets/timesheets.module";
import { timeOffResolvers } from "../modules/timeoff/timeoff.module";
import { complianceResolvers } from "../modules/compliance/compliance.module";

/** Every resolver of the schema; a new module adds its own here. */
export const resolvers: NonEmptyArray<Function> = [
  OrganizationResolver,
  AccessResolver,
  LocationResolver,
  RoleResolver,
  StaffResolver,
  AuditResolver,
  EventResolver,
  EventSubscriptionResolver,
  WebhookResolver,
  ...timesheetResolvers,
  ...scheduleResolvers,
  ...timeOffResolvers,
  ...complianceResolvers,
];
