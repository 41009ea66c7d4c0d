import "reflect-metadata";
import { GraphQLSchema } from "graphql";
import { buildSchemaSync, NonEmptyArray, PubSub } from "type-graphql";
import { checkArgument } from "../common/input-checks";
import { authChecker } from "./authorization";
import { DateTimeISO } from "./date-time-scalar";

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

/** The GraphQL schema of the given decorated resolvers (the modules' list is in src/app/modules.ts). */
export function buildGraphqlSchema(resolvers: NonEmptyArray<Function>): GraphQLSchema {
  return buildSchemaSync({
    resolvers,
    authChecker,
    authMode: "error",
    pubSub: noTopics,
    validateFn: checkArgument,
    scalarsMap: [{ type: Date, scalar: DateTimeISO }],
    // Its check runs a whole introspection query (a twentieth of a start); graphql-js validates the schema itself when Apollo starts.
    skipCheck: true,
  });
}
