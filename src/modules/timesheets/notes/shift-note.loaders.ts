import { requestLoader } from "../../../graphql/request-loader";
import { ShiftNote } from "./shift-note.entity";

export const shiftNotesLoader = requestLoader<string, ShiftNote[]>("shiftNotes", (services, actor, ids) =>
  services.shiftNotes.ofShifts(actor.organizationId, ids),
);
