import { RestRoute } from "./route";

/**
 * The five routes of a plain resource under the organization: list, create, read, change, delete.
 * `names` are the GraphQL fields: { list: "locations", one: "location", create: "createLocation", … }.
 */
export function crudRoutes(spec: {
  tag: string;
  collection: string;
  fields: string;
  /** Filters of the list: argument name → GraphQL type. */
  listArgs?: Record<string, string>;
  names: { list: string; one: string; create: string; update: string; delete: string; input: string };
  label: string;
}): RestRoute[] {
  const base = `/api/organizations/{org}/${spec.collection}`;
  const { names, fields, tag, label } = spec;
  const filters = Object.entries(spec.listArgs ?? {});
  const listVars = filters.map(([name, type]) => `, $${name}: ${type}`).join("");
  const listArgs = filters.map(([name]) => `, ${name}: $${name}`).join("");
  return [
    {
      method: "GET",
      path: base,
      summary: `List ${label}s (paginated: limit, cursor; the next cursor comes in the X-Next-Cursor header)`,
      tag,
      list: true,
      operation: `query ${names.list}($first: Int, $after: String${listVars}) { ${names.list}(first: $first, after: $after${listArgs}) { nodes { ${fields} } pageInfo { hasNextPage endCursor } } }`,
    },
    {
      method: "POST",
      path: base,
      summary: `Create a ${label}`,
      tag,
      status: 201,
      operation: `mutation ${names.create}($input: Create${names.input}Input!) { ${names.create}(input: $input) { ${fields} } }`,
    },
    {
      method: "GET",
      path: `${base}/{id}`,
      summary: `Read a ${label}`,
      tag,
      operation: `query ${names.one}($id: ID!) { ${names.one}(id: $id) { ${fields} } }`,
    },
    {
      method: "PATCH",
      path: `${base}/{id}`,
      summary: `Change a ${label}`,
      tag,
      operation: `mutation ${names.update}($id: ID!, $input: Update${names.input}Input!) { ${names.update}(id: $id, input: $input) { ${fields} } }`,
    },
    {
      method: "DELETE",
      path: `${base}/{id}`,
      summary: `Delete a ${label}`,
      tag,
      status: 204,
      operation: `mutation ${names.delete}($id: ID!) { ${names.delete}(id: $id) }`,
    },
  ];
}
