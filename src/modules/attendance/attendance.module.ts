import type { DomainModule } from "../module";
import { AttendanceResolver } from "./attendance.resolver";
import { attendanceRoutes } from "./attendance.routes";
import { ClockDeviceService } from "./clock-devices/clock-devices.service";
import { ClockRulesService } from "./clock-rules/clock-rules.service";
import { AttendanceExceptionService } from "./exceptions/attendance-exception.service";
import { AttendancePolicyService } from "./policy/attendance-policy.service";
import { PunchCheckService } from "./punch-check.service";

declare module "../../common/services" {
  interface Services {
    clockRules: ClockRulesService;
    clockDevices: ClockDeviceService;
    attendancePolicy: AttendancePolicyService;
    attendanceExceptions: AttendanceExceptionService;
    punchChecks: PunchCheckService;
  }
}

/** Where and when people may clock in, and what their punches (and missing punches) show. */
export const attendanceModule: DomainModule = {
  services: (deps) => ({
    clockRules: new ClockRulesService(deps),
    clockDevices: new ClockDeviceService(deps),
    attendancePolicy: new AttendancePolicyService(deps),
    attendanceExceptions: new AttendanceExceptionService(deps),
    punchChecks: new PunchCheckService(deps),
  }),
  resolvers: [AttendanceResolver],
  restRoutes: attendanceRoutes,
  jobs: (services) => [services.attendanceExceptions.job],
};
