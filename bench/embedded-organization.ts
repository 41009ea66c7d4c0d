import "reflect-metadata";
import request from "supertest";
import { Runtime, startRuntime } from "../src/app/runtime";
import { loadConfig } from "../src/config";

/** A bench organization on an in-memory database, and calls to its REST paths with its own token. */
export interface EmbeddedOrganization {
  runtime: Runtime;
  organizationId: string;
  call: (method: "get" | "post" | "patch", path: string, body?: object) => request.Test;
}

/** Starts the service on the embedded database (no rate limit, no scheduled jobs) with one organization in `timezone`. */
export async function embeddedOrganization(name: string, timezone: string): Promise<EmbeddedOrganization> {
  const runtime = await startRuntime(
    loadConfig({
      DATA_DIR: "memory://",
      PLATFORM_API_KEY: `wfp_bench_${name.toLowerCase().replace(/\W+/g, "_")}_platform_key`,
      LOG_LEVEL: "warn",
      RATE_LIMIT_POINTS: "0",
      SCHEDULED_JOBS: "off",
    }),
  );
  const { organization, apiKey } = await runtime.services.organizations.createTrusted({ name, timezone });
  const token = (await request(runtime.app).post("/api/auth/token-exchange").send({ apiKey })).body.accessToken as string;
  const call = (method: "get" | "post" | "patch", path: string, body: object = {}) => {
    const req = request(runtime.app)[method](`/api/organizations/${organization.id}${path}`).set("Authorization", `Bearer ${token}`);
    return method === "get" ? req : req.send(body);
  };
  return { runtime, organizationId: organization.id, call };
}
