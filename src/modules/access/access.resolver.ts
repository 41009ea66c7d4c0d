import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { PERMISSIONS } from "../../auth/permissions";
import type { RequestContext } from "../../graphql/context";
import { AccessRole } from "./access-role.entity";
import { ApiKey } from "./api-key.entity";
import {
  AccessToken,
  CreateAccessRoleInput,
  CreatedApiKey,
  CreateApiKeyInput,
  PermissionInfo,
  TokenExchangeInput,
  UpdateAccessRoleInput,
} from "./access.inputs";

@Resolver()
export class AccessResolver {
  @Query(() => [PermissionInfo], { description: "Every permission an access role can hold" })
  @Requires()
  permissions(): PermissionInfo[] {
    return Object.entries(PERMISSIONS).map(([name, description]) => ({ name, description }));
  }

  @Query(() => [AccessRole])
  @Requires("access:manage", "staff:read")
  accessRoles(@Ctx() ctx: RequestContext): Promise<AccessRole[]> {
    return ctx.services.access.listAccessRoles(actorOf(ctx));
  }

  @Query(() => AccessRole)
  @Requires("access:manage", "staff:read")
  accessRole(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<AccessRole> {
    return ctx.services.access.getAccessRole(actorOf(ctx), id);
  }

  @Mutation(() => AccessRole)
  @Requires("access:manage")
  createAccessRole(@Arg("input") input: CreateAccessRoleInput, @Ctx() ctx: RequestContext): Promise<AccessRole> {
    return ctx.services.access.createAccessRole(actorOf(ctx), input);
  }

  @Mutation(() => AccessRole)
  @Requires("access:manage")
  updateAccessRole(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateAccessRoleInput, @Ctx() ctx: RequestContext): Promise<AccessRole> {
    return ctx.services.access.updateAccessRole(actorOf(ctx), id, input);
  }

  @Mutation(() => Boolean)
  @Requires("access:manage")
  deleteAccessRole(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.access.deleteAccessRole(actorOf(ctx), id);
  }

  @Query(() => [ApiKey])
  @Requires("access:manage")
  apiKeys(@Ctx() ctx: RequestContext): Promise<ApiKey[]> {
    return ctx.services.access.listApiKeys(actorOf(ctx));
  }

  @Mutation(() => CreatedApiKey)
  @Requires("access:manage")
  createApiKey(@Arg("input") input: CreateApiKeyInput, @Ctx() ctx: RequestContext): Promise<CreatedApiKey> {
    return ctx.services.access.createApiKey(actorOf(ctx), input);
  }

  @Mutation(() => ApiKey)
  @Requires("access:manage")
  revokeApiKey(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ApiKey> {
    return ctx.services.access.revokeApiKey(actorOf(ctx), id);
  }

  @Mutation(() => AccessToken, { description: "Exchanges an API key for a short-lived bearer token" })
  exchangeToken(@Arg("input") input: TokenExchangeInput, @Ctx() ctx: RequestContext): Promise<AccessToken> {
    return ctx.services.access.exchangeToken(input);
  }
}
