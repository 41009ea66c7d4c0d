import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { requireTimeZone } from "../../common/time";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { notFound, unauthenticated } from "../../errors/app-error";
import { AccessService } from "../access";
import { Organization } from "./organization.entity";
import { CreateOrganizationInput, CreateOrganizationPayload, UpdateOrganizationInput } from "./organization.inputs";
import { PlatformSecrets } from "./platform-secrets";
import { findOneBy } from "../../common/entity-reads";

/** Gives a new organization what it starts with (policy types, settings, …), in its creating transaction. */
export type OrganizationSeeder = (manager: EntityManager, organizationId: string) => Promise<void>;

export class OrganizationService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly platform: PlatformSecrets,
    private readonly access: AccessService,
  ) {}

  private readonly seeders: OrganizationSeeder[] = [];

  /** Adds what another module gives every new organization (run in the creating transaction). */
  seedWith(seeder: OrganizationSeeder): void {
    this.seeders.push(seeder);
  }

  /** Creates an organization with its access roles and first API key; needs the platform key. */
  async create(presentedKey: string | null, input: CreateOrganizationInput): Promise<CreateOrganizationPayload> {
    if (!this.isPlatformKey(presentedKey)) throw unauthenticated("Creating an organization needs the platform API key");
    return this.createTrusted(input);
  }

  /** Whether a bearer credential that is not a token is the platform key. */
  isPlatformKey(presented: string | null): boolean {
    return this.platform.isPlatformKey(presented);
  }

  /** Creates an organization for a caller already trusted (the seed command). */
  async createTrusted(input: CreateOrganizationInput): Promise<CreateOrganizationPayload> {
    const timezone = requireTimeZone(input.timezone ?? "UTC");
    return this.deps.unitOfWork.run(async (manager) => {
      const repo = manager.getRepository(Organization);
      const organization = await repo.save(repo.create({ name: input.name.trim(), timezone }));
      const apiKey = await this.access.seedOrganization(manager, organization.id);
      for (const seed of this.seeders) await seed(manager, organization.id);
      return { organization, apiKey };
    });
  }

  async get(actor: Actor): Promise<Organization> {
    const organization = await findOneBy(this.deps.db, Organization, { id: actor.organizationId });
    if (!organization) throw notFound("Organization");
    return organization;
  }

  async update(actor: Actor, input: UpdateOrganizationInput): Promise<Organization> {
    rejectNulls(input);
    const organization = await this.get(actor);
    if (input.name !== undefined) organization.name = input.name.trim();
    if (input.timezone !== undefined) organization.timezone = requireTimeZone(input.timezone);
    return this.deps.unitOfWork.run((manager) => manager.save(organization));
  }
}
