import { crudRoutes } from "../../rest/crud-routes";

export const locationRoutes = crudRoutes({
  tag: "Locations",
  collection: "locations",
  label: "location",
  fields: "id organizationId name timezone externalId address createdAt updatedAt",
  names: { list: "locations", one: "location", create: "createLocation", update: "updateLocation", delete: "deleteLocation", input: "Location" },
});
