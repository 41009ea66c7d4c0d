import "reflect-metadata";
import { GraphQLSchema } from "graphql";
import { buildSchemaSync, NonEmptyArray } from "type-graphql";
import { authChecker } from "./authorization";

/** The GraphQL schema of the given decorated resolvers (the modules' list is in src/app/modules.ts). */
export function buildGraphqlSchema(resolvers: NonEmptyArray<Function>): GraphQLSchema {
  return buildSchemaSync({
    resolvers,
    authChecker,
    authMode: "error",
    validate: { forbidUnknownValues: false },
  });
}
