import { RestRoute } from "../../rest/route";

const ACCESS_ROLE = "id organizationId name permissions isSystem createdAt updatedAt";
const API_KEY = "id organizationId name prefix lastUsedAt revokedAt createdAt updatedAt";
const base = "/api/organizations/{org}";

export const accessRoutes: RestRoute[] = [
  {
    method: "POST",
    path: "/api/auth/token-exchange",
    summary: "Exchange an API key (optionally with a staff member to act as) for a bearer token",
    tag: "Authentication",
    auth: "none",
    operation: "mutation exchangeToken($input: TokenExchangeInput!) { exchangeToken(input: $input) { accessToken tokenType expiresIn } }",
  },
  {
    method: "GET",
    path: `${base}/api-keys`,
    summary: "List the organization's API keys (never their secrets)",
    tag: "Authentication",
    operation: `query apiKeys { apiKeys { ${API_KEY} } }`,
  },
  {
    method: "POST",
    path: `${base}/api-keys`,
    summary: "Create an API key; its secret is shown once",
    tag: "Authentication",
    status: 201,
    operation: `mutation createApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { ${API_KEY} } secret } }`,
  },
  {
    method: "DELETE",
    path: `${base}/api-keys/{id}`,
    summary: "Revoke an API key",
    tag: "Authentication",
    status: 204,
    operation: "mutation revokeApiKey($id: ID!) { revokeApiKey(id: $id) { id } }",
  },
  {
    method: "GET",
    path: `${base}/permissions`,
    summary: "List every permission an access role can hold",
    tag: "Access roles",
    operation: "query permissions { permissions { name description } }",
  },
  {
    method: "GET",
    path: `${base}/access-roles`,
    summary: "List access roles",
    tag: "Access roles",
    operation: `query accessRoles { accessRoles { ${ACCESS_ROLE} } }`,
  },
  {
    method: "POST",
    path: `${base}/access-roles`,
    summary: "Create an access role",
    tag: "Access roles",
    status: 201,
    operation: `mutation createAccessRole($input: CreateAccessRoleInput!) { createAccessRole(input: $input) { ${ACCESS_ROLE} } }`,
  },
  {
    method: "GET",
    path: `${base}/access-roles/{id}`,
    summary: "Read an access role",
    tag: "Access roles",
    operation: `query accessRole($id: ID!) { accessRole(id: $id) { ${ACCESS_ROLE} } }`,
  },
  {
    method: "PATCH",
    path: `${base}/access-roles/{id}`,
    summary: "Change a custom access role",
    tag: "Access roles",
    operation: `mutation updateAccessRole($id: ID!, $input: UpdateAccessRoleInput!) { updateAccessRole(id: $id, input: $input) { ${ACCESS_ROLE} } }`,
  },
  {
    method: "DELETE",
    path: `${base}/access-roles/{id}`,
    summary: "Delete a custom access role that no staff member holds",
    tag: "Access roles",
    status: 204,
    operation: "mutation deleteAccessRole($id: ID!) { deleteAccessRole(id: $id) }",
  },
];
