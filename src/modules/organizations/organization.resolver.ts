import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { Organization } from "./organization.entity";
import { CreateOrganizationInput, CreateOrganizationPayload, UpdateOrganizationInput } from "./organization.inputs";

@Resolver(() => Organization)
export class OrganizationResolver {
  @Query(() => Organization, { description: "The organization of the access token" })
  @Requires("organization:read")
  organization(@Ctx() ctx: RequestContext): Promise<Organization> {
    return ctx.services.organizations.get(actorOf(ctx));
  }

  @Mutation(() => CreateOrganizationPayload, { description: "Creates an organization; needs the platform API key as bearer" })
  createOrganization(@Arg("input") input: CreateOrganizationInput, @Ctx() ctx: RequestContext): Promise<CreateOrganizationPayload> {
    return ctx.services.organizations.create(ctx.presentedKey, input);
  }

  @Mutation(() => Organization)
  @Requires("organization:write")
  updateOrganization(@Arg("input") input: UpdateOrganizationInput, @Ctx() ctx: RequestContext): Promise<Organization> {
    return ctx.services.organizations.update(actorOf(ctx), input);
  }
}
