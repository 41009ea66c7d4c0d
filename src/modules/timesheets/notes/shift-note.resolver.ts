import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { ShiftNote } from "./shift-note.entity";
import { ShiftNoteInput } from "./shift-note.graphql";

@Resolver(() => ShiftNote)
export class ShiftNoteResolver {
  @Query(() => [ShiftNote], { description: "The notes of a shift, oldest first" })
  @Requires("timesheets:read", "timesheets:self")
  shiftNotes(@Arg("shiftId", () => ID) shiftId: string, @Ctx() ctx: RequestContext): Promise<ShiftNote[]> {
    return ctx.services.shiftNotes.list(actorOf(ctx), shiftId);
  }

  @Mutation(() => ShiftNote)
  @Requires("timesheets:write", "timesheets:self")
  addShiftNote(@Arg("shiftId", () => ID) shiftId: string, @Arg("input") input: ShiftNoteInput, @Ctx() ctx: RequestContext): Promise<ShiftNote> {
    return ctx.services.shiftNotes.add(actorOf(ctx), shiftId, input);
  }

  @Mutation(() => ShiftNote, { description: "Authors change their own notes" })
  @Requires("timesheets:write", "timesheets:self")
  updateShiftNote(
    @Arg("shiftId", () => ID) shiftId: string,
    @Arg("id", () => ID) id: string,
    @Arg("input") input: ShiftNoteInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ShiftNote> {
    return ctx.services.shiftNotes.update(actorOf(ctx), shiftId, id, input);
  }

  @Mutation(() => Boolean, { description: "Authors delete their own notes, managers any" })
  @Requires("timesheets:write", "timesheets:self")
  deleteShiftNote(@Arg("shiftId", () => ID) shiftId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.shiftNotes.delete(actorOf(ctx), shiftId, id);
  }
}
