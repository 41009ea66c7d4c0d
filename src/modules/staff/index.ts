/** The front door of staff members: the only file other modules import. */
export { StaffMember } from "./staff-member.entity";
export { staffLoader } from "./staff.loaders";
export { staffModule } from "./staff.module";
export { StaffListener, plannableStaff } from "./staff.service";
export type { PlannableStaffMember } from "./staff.service";
