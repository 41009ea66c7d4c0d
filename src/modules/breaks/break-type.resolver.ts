import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { Location } from "../locations";
import { BreakType } from "./break-type.entity";
import { CreateBreakTypeInput, UpdateBreakTypeInput } from "./break-type.inputs";
import { locationBreakTypesLoader } from "./break-type.loaders";

@Resolver(() => BreakType)
export class BreakTypeResolver {
  @Query(() => [BreakType], { description: "The break types of a location, by name" })
  @Requires("breaks:read")
  breakTypes(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("includeDeleted", () => Boolean, { nullable: true }) includeDeleted: boolean | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<BreakType[]> {
    return ctx.services.breakTypes.list(actorOf(ctx), locationId, includeDeleted ?? false);
  }

  @Query(() => BreakType, { description: "One break type of a location, deleted ones too" })
  @Requires("breaks:read")
  breakType(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<BreakType> {
    return ctx.services.breakTypes.get(actorOf(ctx), locationId, id);
  }

  @Mutation(() => BreakType)
  @Requires("breaks:write")
  createBreakType(@Arg("input") input: CreateBreakTypeInput, @Ctx() ctx: RequestContext): Promise<BreakType> {
    return ctx.services.breakTypes.create(actorOf(ctx), input);
  }

  @Mutation(() => BreakType)
  @Requires("breaks:write")
  updateBreakType(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("id", () => ID) id: string,
    @Arg("input") input: UpdateBreakTypeInput,
    @Ctx() ctx: RequestContext,
  ): Promise<BreakType> {
    return ctx.services.breakTypes.update(actorOf(ctx), locationId, id, input);
  }

  @Mutation(() => Boolean, { description: "Soft delete: the type becomes inactive; breaks taken keep it" })
  @Requires("breaks:write")
  deleteBreakType(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.breakTypes.delete(actorOf(ctx), locationId, id);
  }
}

@Resolver(() => Location)
export class LocationBreakTypesResolver {
  @FieldResolver(() => [BreakType], { description: "The location's live break types" })
  @Requires("breaks:read")
  breakTypes(@Root() location: Location, @Ctx() ctx: RequestContext): Promise<BreakType[]> {
    return locationBreakTypesLoader(ctx).load(location.id);
  }
}
