/** The front door of staff members: the only file other modules import. */
export { StaffMember } from "./staff-member.entity";
export { staffLoader } from "./staff.loaders";
export { staffModule } from "./staff.module";
export { StaffListener } from "./staff.service";
export { selectPlannableStaff } from "./staff.store";
export type { PlannableStaffMember } from "./staff.store";
