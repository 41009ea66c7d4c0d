import { requestLoader } from "../../graphql/request-loader";
import { BreakType } from "./break-type.entity";

export const locationBreakTypesLoader = requestLoader<string, BreakType[]>("locationBreakTypes", (services, actor, ids) =>
  services.breakTypes.ofLocations(actor.organizationId, ids),
);
