import { EntityManager, In } from "typeorm";
import { Actor } from "../../auth/actor";
import { Page } from "../../common/pagination";
import { requireInOrganization, TenantRecords } from "../../common/tenant-records";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { describeConstraint } from "../../errors/database-errors";
import { groupByKeys } from "../../loaders/loaders";
import { AccessRole } from "../access";
import { StaffLocation, StaffMember, StaffRole } from "./staff-member.entity";
import { CreateStaffInput, StaffFilterArgs, UpdateStaffInput } from "./staff.inputs";
import { PlannableStaffMember, selectPlannableStaff, whereStaffListed } from "./staff.store";
import { findOneByOrFail } from "../../common/entity-reads";

export type { PlannableStaffMember } from "./staff.store";

/**
 * The people a schedule may be planned for at a location: its active staff members, or those named
 * (inactive ones too, but not removed ones), with their roles and wages.
 */
export function plannableStaff(manager: EntityManager, organizationId: string, locationId: string, staffIds: string[] | null): Promise<PlannableStaffMember[]> {
  return selectPlannableStaff(manager, organizationId, locationId, staffIds);
}

describeConstraint("uq_staff_members_external_employee_id", "externalEmployeeId is already used by another staff member of this organization");

/** Told of every staff member created or changed, inside the same transaction (time-off policy assignment, …). */
export type StaffListener = (manager: EntityManager, staff: StaffMember) => Promise<void>;

export class StaffService {
  readonly records: TenantRecords<StaffMember>;

  private readonly listeners: StaffListener[] = [];

  constructor(private readonly deps: ServiceDeps) {
    this.records = new TenantRecords(deps, StaffMember, "Staff member");
  }

  /** Tells `listener` of every staff member created or changed from now on. */
  listen(listener: StaffListener): void {
    this.listeners.push(listener);
  }

  async list(actor: Actor, args: StaffFilterArgs): Promise<Page<StaffMember>> {
    // The staff list may lag a few seconds (a client's own writes excepted): a replica answers when one is healthy.
    const source = await this.deps.reads.readerFor(actor);
    return this.records.list(actor, args, { property: "name", column: "name" }, (q) => whereStaffListed(q, args), source);
  }

  get(actor: Actor, id: string): Promise<StaffMember> {
    return this.records.get(actor, id);
  }

  async create(actor: Actor, input: CreateStaffInput): Promise<StaffMember> {
    const org = actor.organizationId;
    return this.deps.unitOfWork.run(async (manager) => {
      const accessRoleId = input.accessRoleId ?? (await this.workerAccessRoleId(manager, org));
      await this.checkReferences(manager, org, input, accessRoleId);
      const repo = manager.getRepository(StaffMember);
      const staff = await repo.save(
        repo.create({
          organizationId: org,
          name: input.name.trim(),
          externalEmployeeId: input.externalEmployeeId ?? null,
          payrollId: input.payrollId ?? null,
          email: input.email ?? null,
          hourlyWage: input.hourlyWage ?? null,
          accessRoleId,
          active: true,
          deletedAt: null,
        }),
      );
      await this.replaceAssignments(manager, staff, input);
      for (const listener of this.listeners) await listener(manager, staff);
      return staff;
    });
  }

  async update(actor: Actor, id: string, input: UpdateStaffInput): Promise<StaffMember> {
    rejectNulls(input);
    const org = actor.organizationId;
    return this.deps.unitOfWork.run(async (manager) => {
      const staff = await this.records.get(actor, id, { manager, lock: true });
      await this.checkReferences(manager, org, input, input.accessRoleId);
      if (input.name !== undefined) staff.name = input.name.trim();
      if (input.externalEmployeeId !== undefined) staff.externalEmployeeId = input.externalEmployeeId;
      if (input.payrollId !== undefined) staff.payrollId = input.payrollId;
      if (input.email !== undefined) staff.email = input.email;
      if (input.hourlyWage !== undefined) staff.hourlyWage = input.hourlyWage;
      if (input.accessRoleId !== undefined) staff.accessRoleId = input.accessRoleId;
      if (input.active !== undefined) staff.active = input.active;
      const saved = await manager.getRepository(StaffMember).save(staff);
      await this.replaceAssignments(manager, saved, input);
      for (const listener of this.listeners) await listener(manager, saved);
      return saved;
    });
  }

  /** Staff who leave keep their history: the record is marked deleted and inactive, not removed. */
  async delete(actor: Actor, id: string): Promise<boolean> {
    const staff = await this.get(actor, id);
    if (!staff.deletedAt) {
      await this.deps.unitOfWork.run((manager) =>
        manager.update(StaffMember, { id: staff.id, organizationId: actor.organizationId }, { deletedAt: this.deps.clock.now(), active: false }),
      );
    }
    return true;
  }

  /** The role assignments (with wages) of many staff members, for loaders. */
  async rolesOf(organizationId: string, staffIds: readonly string[]): Promise<StaffRole[][]> {
    const rows = await this.deps.db.getRepository(StaffRole).find({ where: { organizationId, staffId: In([...staffIds]) }, order: { roleId: "ASC" } });
    return groupByKeys(staffIds, rows, (r) => r.staffId);
  }

  async locationIdsOf(organizationId: string, staffIds: readonly string[]): Promise<string[][]> {
    const rows = await this.deps.db.getRepository(StaffLocation).find({ where: { organizationId, staffId: In([...staffIds]) }, order: { locationId: "ASC" } });
    return groupByKeys(staffIds, rows, (r) => r.staffId).map((list) => list.map((r) => r.locationId));
  }

  private async workerAccessRoleId(manager: EntityManager, organizationId: string): Promise<string> {
    const role = await findOneByOrFail(manager, AccessRole, { organizationId, name: "Worker", isSystem: true });
    return role.id;
  }

  private async checkReferences(
    manager: EntityManager,
    org: string,
    input: CreateStaffInput | UpdateStaffInput,
    accessRoleId: string | undefined,
  ): Promise<void> {
    const roleIds = [...(input.roleIds ?? []), ...(input.roleWages ?? []).map((w) => w.roleId)];
    await requireInOrganization(manager, "roles", org, [...new Set(roleIds)], "roleIds");
    await requireInOrganization(manager, "locations", org, [...new Set(input.locationIds ?? [])], "locationIds");
    if (accessRoleId !== undefined) await requireInOrganization(manager, "access_roles", org, [accessRoleId], "accessRoleId");
  }

  /** Replaces the roles and locations the input names (left alone where the input is silent). */
  private async replaceAssignments(manager: EntityManager, staff: StaffMember, input: CreateStaffInput | UpdateStaffInput): Promise<void> {
    const org = staff.organizationId;
    if (input.roleIds !== undefined || input.roleWages !== undefined) {
      const wages = new Map<string, number | null>();
      const existing = input.roleIds === undefined ? await manager.getRepository(StaffRole).findBy({ organizationId: org, staffId: staff.id }) : [];
      for (const r of existing) wages.set(r.roleId, r.hourlyWage);
      for (const roleId of input.roleIds ?? []) wages.set(roleId, wages.get(roleId) ?? null);
      for (const w of input.roleWages ?? []) wages.set(w.roleId, w.hourlyWage ?? null);
      await manager.getRepository(StaffRole).delete({ organizationId: org, staffId: staff.id });
      if (wages.size) {
        await manager
          .getRepository(StaffRole)
          .insert([...wages].map(([roleId, hourlyWage]) => ({ organizationId: org, staffId: staff.id, roleId, hourlyWage })));
      }
    }
    if (input.locationIds !== undefined) {
      await manager.getRepository(StaffLocation).delete({ organizationId: org, staffId: staff.id });
      const ids = [...new Set(input.locationIds)];
      if (ids.length) await manager.getRepository(StaffLocation).insert(ids.map((locationId) => ({ organizationId: org, staffId: staff.id, locationId })));
    }
  }
}
