import "reflect-metadata";
import { GraphQLSchema, lexicographicSortSchema } from "graphql";
import { buildSchemaSync } from "type-graphql";
import { authChecker } from "../auth/authorization";
import { resolvers } from "./resolvers";

let built: GraphQLSchema | undefined;

/** The one GraphQL schema, built from the decorated resolvers and entities. */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchemaSync({
    resolvers,
    authChecker,
    authMode: "error",
    validate: { forbidUnknownValues: false },
  });
  return built;
}

/** The schema as printed into schema.graphql: sorted, so the file changes only when the schema does. */
export function sortedSchema(): GraphQLSchema {
  return lexicographicSortSchema(graphqlSchema());
}
