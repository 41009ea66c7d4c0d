import { Actor } from "../../auth/actor";
import { Page, PageArgs } from "../../common/pagination";
import { TenantRecords } from "../../common/tenant-records";
import { requireTimeZone } from "../../common/time";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { Location } from "./location.entity";
import { CreateLocationInput, UpdateLocationInput } from "./location.inputs";

export class LocationService {
  readonly records: TenantRecords<Location>;

  constructor(deps: ServiceDeps) {
    this.records = new TenantRecords(deps, Location, "Location");
  }

  list(actor: Actor, page: PageArgs): Promise<Page<Location>> {
    return this.records.list(actor, page, { property: "name", column: "name" });
  }

  get(actor: Actor, id: string): Promise<Location> {
    return this.records.get(actor, id);
  }

  create(actor: Actor, input: CreateLocationInput): Promise<Location> {
    return this.records.save(
      this.records.repo.create({
        organizationId: actor.organizationId,
        name: input.name.trim(),
        timezone: requireTimeZone(input.timezone),
        externalId: input.externalId ?? null,
        address: input.address ?? null,
      }),
    );
  }

  async update(actor: Actor, id: string, input: UpdateLocationInput): Promise<Location> {
    rejectNulls(input);
    const location = await this.get(actor, id);
    if (input.name !== undefined) location.name = input.name.trim();
    if (input.timezone !== undefined) location.timezone = requireTimeZone(input.timezone);
    if (input.externalId !== undefined) location.externalId = input.externalId;
    if (input.address !== undefined) location.address = input.address;
    return this.records.save(location);
  }

  /** A location that holds history (shifts, schedules…) is kept by its foreign keys: a 409 says which. */
  delete(actor: Actor, id: string): Promise<boolean> {
    return this.records.delete(actor, id);
  }
}
