import { organizationLoader } from "../../graphql/request-loader";
import { Location } from "./location.entity";

export const locationLoader = organizationLoader<string, Location | null>("location", (services, organizationId, ids) =>
  services.locations.records.byIds(organizationId, ids),
);
