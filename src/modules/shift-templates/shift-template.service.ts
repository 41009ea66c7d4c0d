import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { isUuid, requireUuid } from "../../common/ids";
import { Page } from "../../common/pagination";
import { ServiceDeps } from "../../common/services";
import { requireInOrganization, TenantRecords } from "../../common/tenant-records";
import { rejectNulls } from "../../common/validation";
import { invalidField, notFound, unknownReference } from "../../errors/app-error";
import { Location } from "../locations";
import { ShiftTemplate, TemplateBreak } from "./shift-template.entity";
import { CreateShiftTemplateInput, ShiftTemplateListArgs, UpdateShiftTemplateInput } from "./shift-template.inputs";
import { minuteOfDay, parseTimeOfDay, templateMinutes } from "./shift-template.rules";
import { forgetSuccessor, selectTemplates } from "./shift-template.store";
import { findOneBy } from "../../common/entity-reads";

/** A location's shift templates: the recurring shifts coverage, drafts and generation are planned in. */
export class ShiftTemplateService {
  readonly locations: TenantRecords<Location>;
  private readonly records: TenantRecords<ShiftTemplate>;

  constructor(private readonly deps: ServiceDeps) {
    this.locations = new TenantRecords(deps, Location, "Location");
    this.records = new TenantRecords(deps, ShiftTemplate, "Shift template");
  }

  async list(actor: Actor, args: ShiftTemplateListArgs): Promise<Page<ShiftTemplate>> {
    const location = await this.locations.get(actor, args.locationId);
    return this.records.list(actor, args, { property: "name", column: "name" }, (q) => q.andWhere("r.location_id = :loc", { loc: location.id }));
  }

  async get(actor: Actor, locationId: string, id: string): Promise<ShiftTemplate> {
    const location = await this.locations.get(actor, locationId);
    return templateAt(this.deps.db.manager, actor.organizationId, location.id, id);
  }

  create(actor: Actor, locationId: string, input: CreateShiftTemplateInput): Promise<ShiftTemplate> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const repo = manager.getRepository(ShiftTemplate);
      const template = repo.create({ organizationId: actor.organizationId, locationId: location.id, cannotBeFollowedBy: [], breaks: [] });
      await this.apply(manager, template, input);
      return repo.save(template);
    });
  }

  update(actor: Actor, locationId: string, id: string, input: UpdateShiftTemplateInput): Promise<ShiftTemplate> {
    rejectNulls(input);
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const template = await templateAt(manager, actor.organizationId, location.id, id, true);
      await this.apply(manager, template, input);
      return manager.getRepository(ShiftTemplate).save(template);
    });
  }

  /** Entries and drafts made from it keep their times and lose the template; its coverage requirements go with it. */
  delete(actor: Actor, locationId: string, id: string): Promise<boolean> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const template = await templateAt(manager, actor.organizationId, location.id, id, true);
      await forgetSuccessor(manager, actor.organizationId, location.id, template.id);
      await manager.getRepository(ShiftTemplate).delete({ organizationId: actor.organizationId, id: template.id });
      return true;
    });
  }

  /** The templates of a location by id, for loaders and plans. */
  byIds(organizationId: string, ids: readonly string[]): Promise<(ShiftTemplate | null)[]> {
    return this.records.byIds(organizationId, ids);
  }

  private async apply(manager: EntityManager, template: ShiftTemplate, input: Partial<CreateShiftTemplateInput>): Promise<void> {
    const org = template.organizationId;
    if (input.name !== undefined) template.name = input.name.trim();
    if (input.roleId !== undefined) {
      [template.roleId] = await requireInOrganization(manager, "roles", org, [input.roleId], "roleId", {
        message: () => "roleId does not name a role of this organization",
      });
    }
    if (input.startTime !== undefined) template.startTime = parseTimeOfDay(input.startTime, "startTime");
    if (input.endTime !== undefined) template.endTime = parseTimeOfDay(input.endTime, "endTime");
    if (template.startTime === template.endTime) throw invalidField("endTime", "endTime must differ from startTime");
    if (input.breaks !== undefined) template.breaks = await this.checkBreaks(manager, template, input.breaks);
    else if (input.startTime !== undefined || input.endTime !== undefined) await this.checkBreaks(manager, template, template.breaks);
    if (input.cannotBeFollowedBy !== undefined) {
      const ids = [...new Set(input.cannotBeFollowedBy.map((id) => String(id).toLowerCase()))];
      template.cannotBeFollowedBy = await requireInOrganization(manager, "shift_templates", org, ids, "cannotBeFollowedBy", {
        where: `location_id = '${requireUuid(template.locationId, "Location")}'`,
        message: (unknown) => `Not templates of this location: ${unknown.join(", ")}`,
      });
    }
  }

  /** Break types of the location, enabled; fixed breaks inside the shift; and time left to work. */
  private async checkBreaks(manager: EntityManager, template: ShiftTemplate, breaks: TemplateBreak[]): Promise<TemplateBreak[]> {
    const rows: { id: string; duration_minutes: number }[] = breaks.length
      ? await manager.query(
          `SELECT id, duration_minutes FROM break_types
            WHERE organization_id = $1 AND location_id = $2 AND id = ANY($3::uuid[]) AND deleted_at IS NULL AND active AND enabled`,
          [template.organizationId, template.locationId, breaks.map((b) => String(b.typeId)).filter(isUuid)],
        )
      : [];
    const minutes = new Map(rows.map((r) => [r.id, r.duration_minutes]));
    const length = templateMinutes(template.startTime, template.endTime);
    let total = 0;
    const checked = breaks.map((b, i) => {
      const typeId = String(b.typeId).toLowerCase();
      const duration = minutes.get(typeId);
      if (duration === undefined)
        throw (isUuid(typeId) ? unknownReference : invalidField)(`breaks.${i}.typeId`, `${b.typeId} is not an enabled break type of this location`);
      total += duration;
      const startTime = b.startTime ?? null;
      if (startTime !== null) {
        const offset = (minuteOfDay(parseTimeOfDay(startTime, `breaks.${i}.startTime`)) - minuteOfDay(template.startTime) + 1440) % 1440;
        if (offset + duration > length) throw invalidField(`breaks.${i}.startTime`, "A planned break must lie inside its shift");
      }
      return { typeId, startTime };
    });
    if (total >= length) throw invalidField("breaks", "The planned breaks are as long as the shift or longer");
    return checked;
  }
}

/** A template of the location (404 otherwise), locked until commit with `lock`. */
export async function templateAt(manager: EntityManager, organizationId: string, locationId: string, id: string, lock = false): Promise<ShiftTemplate> {
  const template = await findOneBy(
    manager,
    ShiftTemplate,
    { organizationId, locationId, id: requireUuid(id, "Shift template") },
    { lock: lock ? "update" : undefined },
  );
  if (!template) throw notFound("Shift template");
  return template;
}

/** Every template of a location, by name: what coverage and generation plan in. */
export function locationTemplates(manager: EntityManager, organizationId: string, locationId: string): Promise<ShiftTemplate[]> {
  return selectTemplates(manager, organizationId, locationId);
}
