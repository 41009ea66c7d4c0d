import "reflect-metadata";
import { GraphQLSchema, lexicographicSortSchema } from "graphql";
import { buildSchemaSync, PubSub } from "type-graphql";
import { authChecker } from "../auth/authorization";
import { resolvers } from "./resolvers";

let built: GraphQLSchema | undefined;

/**
 * Subscriptions read committed events from the database's notifications (EventStream), each with
 * a subscribe function of its own; type-graphql still asks for a topic publisher, which nothing uses.
 */
const noTopics: PubSub = {
  publish() {
    throw new Error("Subscriptions follow committed events, not published topics");
  },
  subscribe() {
    throw new Error("Subscriptions follow committed events, not published topics");
  },
};

/** The one GraphQL schema, built from the decorated resolvers and entities. */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchemaSync({
    resolvers,
    authChecker,
    authMode: "error",
    pubSub: noTopics,
    validate: { forbidUnknownValues: false },
  });
  return built;
}

/** The schema as printed into schema.graphql: sorted, so the file changes only when the schema does. */
export function sortedSchema(): GraphQLSchema {
  return lexicographicSortSchema(graphqlSchema());
}
