import { Client } from "pg";
import { PreparingClient } from "../../src/database/prepared-statements";
import { CountingClient, statementsSent } from "../../src/database/statement-count";
import { TestService } from "../support/harness";

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

describe("the SQL statements a process sends", () => {
  onPostgres("are counted once each by the pool's clients, named prepared statements too", async () => {
    for (const Kind of [CountingClient, PreparingClient]) {
      const client: Client = new Kind({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        const before = statementsSent();
        await client.query("SELECT 1");
        // The second and third are sent as a prepared statement by PreparingClient.
        for (const n of [1, 2, 3]) await client.query("SELECT $1::int AS n -- statement-count test", [n]);
        expect(statementsSent() - before).toBe(4);
      } finally {
        await client.end();
      }
    }
  });

  describe("in the service", () => {
    let t: TestService;
    beforeAll(async () => (t = await TestService.start()));
    afterAll(() => t.stop());

    it("are shown on /healthz, a change's among them", async () => {
      const org = await t.organization();
      const shown = async () => (await t.http.get("/healthz")).body.process.sqlStatements as number;
      const before = await shown();
      const created = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Counted", timezone: "Europe/Paris" });
      expect(created.status).toBe(201);
      // At least its transaction's start, actor, insert and commit; the process's jobs may send more meanwhile.
      expect((await shown()) - before).toBeGreaterThanOrEqual(4);
    });
  });
});
