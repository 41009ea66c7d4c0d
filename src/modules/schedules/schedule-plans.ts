import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { isUuid } from "../../common/ids";
import { requireInOrganization } from "../../common/tenant-records";
import { formatLocal, parseDate, parseTimestamp } from "../../common/time";
import { rejectNulls } from "../../common/validation";
import { conflict, invalidField, unknownReference } from "../../errors/app-error";
import { describeConstraint } from "../../errors/database-errors";
import { refuseUnavailable } from "../availability";
import { Location } from "../locations";
import { breakStart, templateAt, templateTimes } from "../shift-templates";
import { ScheduleBreak } from "./schedule.entity";
import { BreakPlan, selectApprovedTimeOffOverlap, selectUsableBreakTypes, ShiftPlan } from "./schedule.store";
import { PlanChangeInput, PlannedBreakInput, ShiftPlanInput } from "./schedule.inputs";

export type { BreakPlan } from "./schedule.store";

describeConstraint("ex_schedule_entries_worker_overlap", "The worker already has a schedule entry that overlaps this time");
describeConstraint("uq_schedule_drafts_entry", "This entry already has a draft; change or remove that draft instead");
describeConstraint("fk_schedule_breaks_break_type", "A planned break names a break type that does not exist");

/** The longest shift that can be planned. */
export const MAX_PLANNED_MINUTES = 24 * 60;

/** An active staff member of the organization, for a new or re-assigned entry. */
async function requireActiveStaffMember(manager: EntityManager, organizationId: string, staffId: string): Promise<void> {
  await requireInOrganization(manager, "staff_members", organizationId, [staffId], "workerId", {
    where: "active AND deleted_at IS NULL",
    message: () => "workerId does not name an active staff member of this organization",
  });
}

export async function requireRole(manager: EntityManager, organizationId: string, roleId: string): Promise<void> {
  await requireInOrganization(manager, "roles", organizationId, [roleId], "roleId", { message: () => "roleId does not name a role of this organization" });
}

/**
 * The location's usable break types among `ids`, in the order asked; an id that is not one of
 * them is a 404 naming its place in `field` (a malformed one a 400).
 */
export async function breakTypesOf(manager: EntityManager, organizationId: string, locationId: string, ids: string[], field: string): Promise<BreakPlan[]> {
  const rows = await selectUsableBreakTypes(manager, organizationId, locationId, ids.filter(isUuid));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id, i) => {
    const row = byId.get(String(id).toLowerCase());
    if (!row) throw (isUuid(id) ? unknownReference : invalidField)(`${field}.${i}`, `${id} is not an enabled break type of this location`);
    return { typeId: row.id, name: row.name, paid: row.paid, durationMinutes: row.duration_minutes, startsAt: null };
  });
}

/** Breaks fit inside the shift, fixed ones do not overlap each other, and they leave time to work. */
function checkBreaks(breaks: BreakPlan[], startsAt: Date, endsAt: Date): void {
  const total = breaks.reduce((sum, b) => sum + b.durationMinutes, 0);
  if (total * 60000 >= endsAt.getTime() - startsAt.getTime()) throw invalidField("breaks", "The planned breaks are as long as the shift or longer");
  const fixed = breaks
    .map((b, i) => ({ i, start: b.startsAt?.getTime(), end: (b.startsAt?.getTime() ?? 0) + b.durationMinutes * 60000 }))
    .filter((b): b is { i: number; start: number; end: number } => b.start !== undefined)
    .sort((a, b) => a.start - b.start);
  fixed.forEach((b, k) => {
    if (b.start < startsAt.getTime() || b.end > endsAt.getTime()) throw invalidField(`breaks.${b.i}.startTime`, "A planned break must lie inside its shift");
    if (k > 0 && b.start < fixed[k - 1].end) throw invalidField(`breaks.${b.i}.startTime`, "Planned breaks must not overlap each other");
  });
}

async function resolveBreaks(manager: EntityManager, organizationId: string, location: Location, input: PlannedBreakInput[]): Promise<BreakPlan[]> {
  const types = await breakTypesOf(
    manager,
    organizationId,
    location.id,
    input.map((b) => b.typeId),
    "breaks",
  );
  return input.map((b, i) => ({
    ...types[i],
    startsAt: b.startTime === undefined || b.startTime === null ? null : parseTimestamp(b.startTime, location.timezone, `breaks.${i}.startTime`),
  }));
}

/**
 * Validates a new plan (`base` null: worker, role, start and end are required) or a change to
 * `base` (absent fields are kept; planned breaks are kept unless `breaks` is given).
 */
export async function resolvePlan(manager: EntityManager, actor: Actor, location: Location, base: ShiftPlan | null, input: ShiftPlanInput): Promise<ShiftPlan> {
  // Creations and plain objects (demo data) come here too: the fields are those a change refuses null for.
  rejectNulls(input, PlanChangeInput);
  const org = actor.organizationId;
  const required = (field: "workerId" | "roleId" | "startTime" | "endTime"): string => {
    const value = input[field];
    if (value === undefined) throw invalidField(field, `${field} is required`);
    return value;
  };
  const template = await templatePlan(manager, org, location, input);
  // A role that is not the organization's is unknown (404), before it can differ from the template's.
  if (input.roleId !== undefined) await requireRole(manager, org, input.roleId);
  if (template && input.roleId !== undefined && input.roleId.toLowerCase() !== template.roleId)
    throw invalidField("roleId", "roleId differs from the template's role");
  const staffId = input.workerId ?? base?.staffId ?? required("workerId");
  const roleId = input.roleId ?? template?.roleId ?? base?.roleId ?? required("roleId");
  if (input.workerId !== undefined) await requireActiveStaffMember(manager, org, staffId);
  const timeOf = (field: "startTime" | "endTime", kept: Date | undefined, planned: Date | undefined): Date =>
    input[field] !== undefined || (!kept && !planned) ? parseTimestamp(required(field), location.timezone, field) : (planned ?? kept!);
  const startsAt = timeOf("startTime", base?.startsAt, template?.startsAt);
  const endsAt = timeOf("endTime", base?.endsAt, template?.endsAt);
  if (endsAt <= startsAt) throw invalidField("endTime", "endTime must be after startTime");
  if (endsAt.getTime() - startsAt.getTime() > MAX_PLANNED_MINUTES * 60000) throw invalidField("endTime", "A planned shift may last at most 24 hours");
  const breakInput = input.breaks ?? template?.breaks;
  const breaks = breakInput !== undefined ? await resolveBreaks(manager, org, location, breakInput) : (base?.breaks ?? []);
  checkBreaks(breaks, startsAt, endsAt);
  const note = input.note !== undefined ? input.note?.trim() || null : (base?.note ?? null);
  const movedOrReassigned =
    !base || input.workerId !== undefined || input.startTime !== undefined || input.endTime !== undefined || input.templateId !== undefined;
  if (movedOrReassigned) await refuseUnavailable(manager, org, location.timezone, [{ staffId: staffId.toLowerCase(), startsAt, endsAt }]);
  const templateId = template?.templateId ?? base?.templateId ?? null;
  return { staffId: staffId.toLowerCase(), roleId: roleId.toLowerCase(), startsAt, endsAt, note, breaks, templateId };
}

/** What a plan takes from the template named by `templateId` on `date`: role, times and breaks. */
async function templatePlan(
  manager: EntityManager,
  organizationId: string,
  location: Location,
  input: ShiftPlanInput,
): Promise<{ templateId: string; roleId: string; startsAt: Date; endsAt: Date; breaks: PlannedBreakInput[] } | null> {
  if (input.templateId === undefined || input.templateId === null) {
    if (input.date !== undefined && input.date !== null) throw invalidField("date", "date goes with templateId");
    return null;
  }
  if (input.date === undefined || input.date === null) throw invalidField("date", "date is required with templateId");
  const date = parseDate(input.date, "date");
  const template = await templateAt(manager, organizationId, location.id, input.templateId);
  const zone = location.timezone;
  return {
    templateId: template.id,
    roleId: template.roleId,
    ...templateTimes(template, date, zone),
    breaks: template.breaks.map((b) => ({
      typeId: b.typeId,
      startTime: b.startTime ? formatLocal(breakStart(template.startTime, b.startTime, date, zone), zone) : null,
    })),
  };
}

/**
 * Refuses plans that overlap an approved time-off request of their worker (checked inside the
 * writing transaction, once the plans are in their final shape).
 */
export async function assertNoApprovedTimeOff(
  manager: EntityManager,
  organizationId: string,
  plans: Pick<ShiftPlan, "staffId" | "startsAt" | "endsAt">[],
  timezone: string,
): Promise<void> {
  if (!plans.length) return;
  const overlap = await selectApprovedTimeOffOverlap(manager, organizationId, plans);
  if (overlap) {
    const plan = plans[overlap.index];
    throw conflict(
      `Worker ${plan.staffId} has approved time off from ${formatLocal(overlap.startTime, timezone)} to ${formatLocal(overlap.endTime, timezone)}, ` +
        `which overlaps the shift starting ${formatLocal(plan.startsAt, timezone)}`,
    );
  }
}

/** The plan of a stored entry or draft, as a base for changes. */
export function planOf(record: Pick<ShiftPlan, "staffId" | "roleId" | "startsAt" | "endsAt" | "note" | "templateId">, breaks: ScheduleBreak[]): ShiftPlan {
  return {
    templateId: record.templateId ?? null,
    staffId: record.staffId,
    roleId: record.roleId,
    startsAt: record.startsAt,
    endsAt: record.endsAt,
    note: record.note,
    breaks: breaks.map(({ typeId, name, paid, durationMinutes, startsAt }) => ({ typeId, name, paid, durationMinutes, startsAt })),
  };
}
