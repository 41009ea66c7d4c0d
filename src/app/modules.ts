import { GraphQLSchema } from "graphql";
import { NonEmptyArray } from "type-graphql";
import type { ScheduledJob, Services } from "../common/services";
import { buildGraphqlSchema } from "../graphql/schema";
import { accessModule } from "../modules/access";
import { auditModule } from "../modules/audit";
import { attendanceModule } from "../modules/attendance";
import { availabilityModule } from "../modules/availability";
import { breaksModule } from "../modules/breaks";
import { calendarFeedsModule } from "../modules/calendar-feeds";
import { complianceModule } from "../modules/compliance";
import { coverageModule } from "../modules/coverage-requirements";
import { eventsModule } from "../modules/events";
import { locationsModule } from "../modules/locations";
import type { DomainModule } from "../modules/module";
import { openShiftsModule } from "../modules/open-shifts";
import { organizationsModule } from "../modules/organizations";
import { payPeriodsModule } from "../modules/pay-periods";
import { rolesModule } from "../modules/roles";
import { schedulesModule } from "../modules/schedules";
import { shiftTemplatesModule } from "../modules/shift-templates";
import { staffModule } from "../modules/staff";
import { timeClockModule } from "../modules/timeclock";
import { timesheetsModule } from "../modules/timesheets";
import { timeOffModule } from "../modules/timeoff";
import { webhooksModule } from "../modules/webhooks";
import { scheduleGenerationModule } from "../workflows/schedule-generation";
import { RawRestRoute } from "../rest/raw-routes";
import { shiftRequestsModule } from "../workflows/shift-requests";
import { workflowsModule } from "../workflows/workflows.module";
import { RestRoute } from "../rest/route";

/**
 * Every domain of the service, the one list: its services, resolvers, REST paths and jobs are
 * gathered from here. A module's services are built in this order, so a module may use those of
 * the modules before it (time off hooks into organizations and staff, the time clock writes shifts).
 */
export const modules: DomainModule[] = [
  accessModule,
  organizationsModule,
  locationsModule,
  rolesModule,
  staffModule,
  auditModule,
  eventsModule,
  webhooksModule,
  breaksModule,
  timesheetsModule,
  attendanceModule,
  payPeriodsModule,
  timeClockModule,
  shiftTemplatesModule,
  schedulesModule,
  coverageModule,
  openShiftsModule,
  timeOffModule,
  complianceModule,
  availabilityModule,
  shiftRequestsModule,
  calendarFeedsModule,
  scheduleGenerationModule,
  workflowsModule,
];

/** Every resolver of the schema. */
export const resolvers = modules.flatMap((module) => module.resolvers) as NonEmptyArray<Function>;

/** The REST route table: every /api path mapped onto a GraphQL operation. */
export const restRoutes: RestRoute[] = modules.flatMap((module) => module.restRoutes);

/** Paths answered by handlers of their own (streamed downloads), authenticated and documented like the rest. */
export const rawRestRoutes: RawRestRoute[] = modules.flatMap((module) => module.rawRestRoutes ?? []);

/** The background work of every module. */
export function scheduledJobs(services: Services): ScheduledJob[] {
  return modules.flatMap((module) => module.jobs?.(services) ?? []);
}

let schema: GraphQLSchema | undefined;

/** The one GraphQL schema, built once from every module's resolvers. */
export function graphqlSchema(): GraphQLSchema {
  return (schema ??= buildGraphqlSchema(resolvers));
}
