import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page, PageArgs } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { Location } from "./location.entity";
import { CreateLocationInput, LocationConnection, UpdateLocationInput } from "./location.inputs";

@Resolver(() => Location)
export class LocationResolver {
  @Query(() => LocationConnection)
  @Requires("locations:read")
  locations(@Args() page: PageArgs, @Ctx() ctx: RequestContext): Promise<Page<Location>> {
    return ctx.services.locations.list(actorOf(ctx), page);
  }

  @Query(() => Location)
  @Requires("locations:read")
  location(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<Location> {
    return ctx.services.locations.get(actorOf(ctx), id);
  }

  @Mutation(() => Location)
  @Requires("locations:write")
  createLocation(@Arg("input") input: CreateLocationInput, @Ctx() ctx: RequestContext): Promise<Location> {
    return ctx.services.locations.create(actorOf(ctx), input);
  }

  @Mutation(() => Location)
  @Requires("locations:write")
  updateLocation(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateLocationInput, @Ctx() ctx: RequestContext): Promise<Location> {
    return ctx.services.locations.update(actorOf(ctx), id, input);
  }

  @Mutation(() => Boolean)
  @Requires("locations:write")
  deleteLocation(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.locations.delete(actorOf(ctx), id);
  }
}
