import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { Page, PageArgs } from "../../common/pagination";
import { TenantRecords } from "../../common/tenant-records";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { Role } from "./role.entity";
import { CreateRoleInput, UpdateRoleInput } from "./role.inputs";
import { selectRoleWages } from "./role.store";

/** Each named role's own hourly wage (exact numeric text), or null without one: what a generation prices a shift at. */
export function roleWages(manager: EntityManager, organizationId: string, roleIds: string[]): Promise<Map<string, string | null>> {
  return selectRoleWages(manager, organizationId, roleIds);
}

export class RoleService {
  readonly records: TenantRecords<Role>;

  constructor(deps: ServiceDeps) {
    this.records = new TenantRecords(deps, Role, "Role");
  }

  list(actor: Actor, page: PageArgs): Promise<Page<Role>> {
    return this.records.list(actor, page, { property: "name", column: "name" });
  }

  get(actor: Actor, id: string): Promise<Role> {
    return this.records.get(actor, id);
  }

  create(actor: Actor, input: CreateRoleInput): Promise<Role> {
    return this.records.save(this.records.repo.create({ organizationId: actor.organizationId, name: input.name.trim(), hourlyWage: input.hourlyWage ?? null }));
  }

  async update(actor: Actor, id: string, input: UpdateRoleInput): Promise<Role> {
    rejectNulls(input);
    const role = await this.get(actor, id);
    if (input.name !== undefined) role.name = input.name.trim();
    if (input.hourlyWage !== undefined) role.hourlyWage = input.hourlyWage;
    return this.records.save(role);
  }

  /** Staff lose the role with it; a role that shifts or schedules still name is kept (409). */
  delete(actor: Actor, id: string): Promise<boolean> {
    return this.records.delete(actor, id);
  }
}
