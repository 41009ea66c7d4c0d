import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { ShiftTemplate } from "./shift-template.entity";
import { CreateShiftTemplateInput, ShiftTemplateConnection, ShiftTemplateListArgs, UpdateShiftTemplateInput } from "./shift-template.inputs";

@Resolver(() => ShiftTemplate)
export class ShiftTemplateResolver {
  @Query(() => ShiftTemplateConnection, { description: "A location's shift templates by name" })
  @Requires("schedules:read", "schedules:self")
  shiftTemplates(@Args() args: ShiftTemplateListArgs, @Ctx() ctx: RequestContext): Promise<Page<ShiftTemplate>> {
    return ctx.services.shiftTemplates.list(actorOf(ctx), args);
  }

  @Query(() => ShiftTemplate)
  @Requires("schedules:read", "schedules:self")
  shiftTemplate(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ShiftTemplate> {
    return ctx.services.shiftTemplates.get(actorOf(ctx), locationId, id);
  }

  @Mutation(() => ShiftTemplate)
  @Requires("schedules:write")
  createShiftTemplate(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: CreateShiftTemplateInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ShiftTemplate> {
    return ctx.services.shiftTemplates.create(actorOf(ctx), locationId, input);
  }

  @Mutation(() => ShiftTemplate)
  @Requires("schedules:write")
  updateShiftTemplate(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("id", () => ID) id: string,
    @Arg("input") input: UpdateShiftTemplateInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ShiftTemplate> {
    return ctx.services.shiftTemplates.update(actorOf(ctx), locationId, id, input);
  }

  @Mutation(() => Boolean, { description: "Entries and drafts made from it keep their times; its coverage requirements go with it" })
  @Requires("schedules:write")
  deleteShiftTemplate(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.shiftTemplates.delete(actorOf(ctx), locationId, id);
  }
}
