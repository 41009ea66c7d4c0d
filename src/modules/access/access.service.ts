import { EntityManager, IsNull } from "typeorm";
import { Actor } from "../../auth/actor";
import { ALL_PERMISSIONS, isPermission, Permission, SYSTEM_ACCESS_ROLES } from "../../auth/permissions";
import { hashSecret, newSecret } from "../../auth/secrets";
import { TokenSigner } from "../../auth/tokens";
import { requireUuid, isUuid } from "../../common/ids";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { conflict, invalidField, notFound, unauthenticated } from "../../errors/app-error";
import { AccessRole } from "./access-role.entity";
import { ApiKey } from "./api-key.entity";
import { activeStaffMember, holdersOfAccessRole, tokenStanding } from "./access.store";
import { AccessToken, CreateAccessRoleInput, CreatedApiKey, CreateApiKeyInput, TokenExchangeInput, UpdateAccessRoleInput } from "./access.inputs";
import { findOneBy } from "../../common/entity-reads";

const API_KEY_PREFIX = "wfk";

function checkPermissions(permissions: string[]): Permission[] {
  const unknown = permissions.filter((p) => !isPermission(p));
  if (unknown.length) throw invalidField("permissions", `Unknown permission(s): ${unknown.join(", ")}`);
  return [...new Set(permissions)] as Permission[];
}

/** Access roles, API keys, and turning credentials into actors. */
export class AccessService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly signer: TokenSigner,
  ) {}

  /** Seeds a new organization's system access roles and its first API key; returns the key. */
  async seedOrganization(manager: EntityManager, organizationId: string): Promise<string> {
    await manager
      .getRepository(AccessRole)
      .insert(SYSTEM_ACCESS_ROLES.map((r) => ({ organizationId, name: r.name, permissions: r.permissions, isSystem: true })));
    const { secret } = await this.insertApiKey(manager, organizationId, "Initial key");
    return secret;
  }

  // --- access roles ---

  listAccessRoles(actor: Actor): Promise<AccessRole[]> {
    return this.deps.db.getRepository(AccessRole).find({ where: { organizationId: actor.organizationId }, order: { name: "ASC" } });
  }

  async getAccessRole(actor: Actor, id: string): Promise<AccessRole> {
    const role = await findOneBy(this.deps.db, AccessRole, { id: requireUuid(id, "Access role"), organizationId: actor.organizationId });
    if (!role) throw notFound("Access role");
    return role;
  }

  async findAccessRoleByName(manager: EntityManager, organizationId: string, name: string): Promise<AccessRole | null> {
    return findOneBy(manager, AccessRole, { organizationId, name });
  }

  async createAccessRole(actor: Actor, input: CreateAccessRoleInput): Promise<AccessRole> {
    const permissions = checkPermissions(input.permissions);
    const role = this.deps.db.getRepository(AccessRole).create({ organizationId: actor.organizationId, name: input.name.trim(), permissions, isSystem: false });
    return this.deps.unitOfWork.run((manager) => manager.save(role));
  }

  async updateAccessRole(actor: Actor, id: string, input: UpdateAccessRoleInput): Promise<AccessRole> {
    rejectNulls(input);
    const role = await this.getAccessRole(actor, id);
    if (role.isSystem) throw conflict(`"${role.name}" is a built-in access role and cannot be changed; create a custom one instead`);
    if (input.name !== undefined) role.name = input.name.trim();
    if (input.permissions !== undefined) role.permissions = checkPermissions(input.permissions);
    return this.deps.unitOfWork.run((manager) => manager.save(role));
  }

  async deleteAccessRole(actor: Actor, id: string): Promise<boolean> {
    const role = await this.getAccessRole(actor, id);
    if (role.isSystem) throw conflict(`"${role.name}" is a built-in access role and cannot be deleted`);
    const count = await holdersOfAccessRole(this.deps.db, actor.organizationId, role.id);
    if (count > 0) throw conflict(`The access role "${role.name}" is held by ${count} staff member(s); give them another one first`);
    await this.deps.unitOfWork.run((manager) => manager.delete(AccessRole, { id: role.id, organizationId: actor.organizationId }));
    return true;
  }

  // --- API keys ---

  listApiKeys(actor: Actor): Promise<ApiKey[]> {
    return this.deps.db.getRepository(ApiKey).find({ where: { organizationId: actor.organizationId }, order: { createdAt: "ASC", id: "ASC" } });
  }

  async createApiKey(actor: Actor, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    return this.deps.unitOfWork.run((manager) => this.insertApiKey(manager, actor.organizationId, input.name.trim()));
  }

  private async insertApiKey(manager: EntityManager, organizationId: string, name: string): Promise<CreatedApiKey> {
    const secret = newSecret(API_KEY_PREFIX);
    const repo = manager.getRepository(ApiKey);
    const apiKey = await repo.save(
      repo.create({ organizationId, name, prefix: secret.slice(0, 12), secretHash: hashSecret(secret), lastUsedAt: null, revokedAt: null }),
    );
    return { apiKey, secret };
  }

  async revokeApiKey(actor: Actor, id: string): Promise<ApiKey> {
    const key = await findOneBy(this.deps.db, ApiKey, { id: requireUuid(id, "API key"), organizationId: actor.organizationId });
    if (!key) throw notFound("API key");
    if (!key.revokedAt) {
      key.revokedAt = this.deps.clock.now();
      await this.deps.unitOfWork.run((manager) => manager.update(ApiKey, { id: key.id, organizationId: actor.organizationId }, { revokedAt: key.revokedAt }));
    }
    return key;
  }

  // --- tokens ---

  /** Exchanges an API key (optionally with a staff member to act as) for a signed bearer token. */
  async exchangeToken(input: TokenExchangeInput): Promise<AccessToken> {
    const key = await this.deps.db.getRepository(ApiKey).findOneBy({ secretHash: hashSecret(input.apiKey), revokedAt: IsNull() });
    if (!key) throw unauthenticated("The API key is unknown or revoked");
    let staffId: string | null = null;
    if (input.staffId !== undefined && input.staffId !== null) {
      const rows = isUuid(input.staffId) ? await activeStaffMember(this.deps.db, key.organizationId, input.staffId) : [];
      if (!rows.length) throw notFound("Staff member");
      staffId = rows[0].id;
    }
    const now = this.deps.clock.now();
    await this.deps.unitOfWork.run((manager) => manager.update(ApiKey, { id: key.id }, { lastUsedAt: now }));
    const accessToken = await this.signer.sign({ organizationId: key.organizationId, apiKeyId: key.id, staffId }, now);
    return { accessToken, tokenType: "Bearer", expiresIn: this.signer.lifetimeSeconds };
  }

  /** Refuses an API key sent where a bearer token belongs, saying what to do with it instead. */
  refuseKeyAsToken(credential: string): void {
    if (credential.startsWith(`${API_KEY_PREFIX}_`)) {
      throw unauthenticated(
        "This is an API key, not an access token: exchange it with POST /api/auth/token-exchange and send the accessToken it answers as the bearer token",
      );
    }
  }

  /**
   * Turns a bearer token into the actor of a request. Permissions are read now, not from the
   * token, so a revoked key, a staff member who left or a changed access role takes effect at once.
   */
  async authenticate(token: string): Promise<Actor> {
    const claims = await this.signer.verify(token, this.deps.clock.now());
    const row = await tokenStanding(this.deps.db, claims.apiKeyId, claims.organizationId, claims.staffId);
    if (!row || row.revoked) throw unauthenticated("The API key behind this token has been revoked");
    if (claims.staffId && !row.staff_ok) throw unauthenticated("The staff member of this token is no longer active");
    const permissions = claims.staffId ? (row.permissions ?? []).filter(isPermission) : ALL_PERMISSIONS;
    return { organizationId: claims.organizationId, apiKeyId: claims.apiKeyId, staffId: claims.staffId, permissions: new Set(permissions) };
  }
}
