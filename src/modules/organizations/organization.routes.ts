import { RestRoute } from "../../rest/route";

const ORGANIZATION = "id name timezone createdAt updatedAt";

export const organizationRoutes: RestRoute[] = [
  {
    method: "POST",
    path: "/api/organizations",
    summary: "Create an organization (platform key as bearer); answers it and its first API key",
    tag: "Organizations",
    auth: "platform",
    status: 201,
    operation: `mutation createOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { organization { ${ORGANIZATION} } apiKey } }`,
  },
  {
    method: "GET",
    path: "/api/organizations/{org}",
    summary: "Read the organization",
    tag: "Organizations",
    operation: `query organization { organization { ${ORGANIZATION} } }`,
  },
  {
    method: "PATCH",
    path: "/api/organizations/{org}",
    summary: "Change the organization",
    tag: "Organizations",
    operation: `mutation updateOrganization($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { ${ORGANIZATION} } }`,
  },
];
