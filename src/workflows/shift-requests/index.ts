/** The shift-request workflow's front door. */
export { shiftRequestsModule } from "./shift-requests.module";
