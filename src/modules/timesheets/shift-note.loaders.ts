import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { ShiftNote } from "./shift-note.entity";

export const shiftNotesLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, ShiftNote[]>("shiftNotes", (ids) => ctx.services.shiftNotes.ofShifts(actorOf(ctx).organizationId, ids));
