/** The attendance domain's front door: clock rules, devices, policy, exceptions and the check at each punch. */
export { attendanceModule } from "./attendance.module";
export type { PunchCheckService, Punch } from "./punch-check.service";
export type { AttendanceExceptionService } from "./exceptions/attendance-exception.service";
export { PunchPositionFields } from "./clock-rules/clock-rules.graphql";
