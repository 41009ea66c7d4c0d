import { organizationLoader } from "../../graphql/request-loader";
import { BreakType } from "./break-type.entity";

export const locationBreakTypesLoader = organizationLoader<string, BreakType[]>("locationBreakTypes", (services, organizationId, ids) =>
  services.breakTypes.ofLocations(organizationId, ids),
);
