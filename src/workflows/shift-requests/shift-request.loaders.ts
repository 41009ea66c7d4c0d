import { requestLoader } from "../../graphql/request-loader";
import { ShiftRequest } from "./shift-request.entity";
import { ShiftRequestPreview } from "./shift-request.graphql";

/** The previews of every request an answer holds, worked out together: a page of requests costs what one does. */
export const shiftRequestPreviewLoader = requestLoader<ShiftRequest, ShiftRequestPreview>("shiftRequestPreview", (services, actor, requests) =>
  services.shiftRequests.previews(actor, requests),
);
