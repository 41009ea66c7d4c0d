import { organizationLoader } from "../../../graphql/request-loader";
import { ShiftNote } from "./shift-note.entity";

export const shiftNotesLoader = organizationLoader<string, ShiftNote[]>("shiftNotes", (services, organizationId, ids) =>
  services.shiftNotes.ofShifts(organizationId, ids),
);
