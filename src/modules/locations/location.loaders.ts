import { requestLoader } from "../../graphql/request-loader";
import { Location } from "./location.entity";

export const locationLoader = requestLoader<string, Location | null>("location", (services, actor, ids) =>
  services.locations.records.byIds(actor.organizationId, ids),
);
