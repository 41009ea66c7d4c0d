import { Client } from "pg";
import { TestOrganization, TestService } from "../support/harness";

// Row locks prove nothing on PGlite's single connection: this runs on PostgreSQL only.
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

describe("event numbers", () => {
  let t: TestService;
  let org: TestOrganization;
  const clients: Client[] = [];
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await t?.stop();
  });

  async function connect(): Promise<Client> {
    const client = new Client({ connectionString: t.databaseUrl });
    await client.connect();
    clients.push(client);
    return client;
  }

  async function newLocation(name: string): Promise<string> {
    const created = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name, timezone: "UTC" });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  onPostgres("are taken at commit: a change still open keeps no other change of the organization waiting, and numbers follow commit order", async () => {
    const [first, second] = [await newLocation("First"), await newLocation("Second")];
    const [slow, quick] = [await connect(), await connect()];
    await slow.query("BEGIN");
    await slow.query("UPDATE locations SET name = 'First, renamed' WHERE id = $1", [first]);
    // The open transaction has recorded its event; the other change must not wait for it.
    await quick.query("SET lock_timeout = '2s'");
    await quick.query("UPDATE locations SET name = 'Second, renamed' WHERE id = $1", [second]);
    await slow.query("COMMIT");

    const events = await t.runtime.db.query(
      `SELECT sequence::int AS sequence, object->>'name' AS name FROM events
        WHERE organization_id = $1 AND type = 'location.updated' ORDER BY sequence`,
      [org.id],
    );
    // The later commit has the later number, though its change was recorded first.
    expect(events.map((e: { name: string }) => e.name)).toEqual(["Second, renamed", "First, renamed"]);
    const all = await t.runtime.db.query("SELECT sequence::int AS sequence FROM events WHERE organization_id = $1 ORDER BY sequence", [org.id]);
    expect(all.map((e: { sequence: number }) => e.sequence)).toEqual(all.map((_: unknown, i: number) => i + 1));
  });
});
