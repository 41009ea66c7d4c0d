import * as parser from "graphql/language/parser";
import { PUBLIC_DOCUMENT_MAX_LENGTH } from "../../src/graphql/request-guard";
import { TestOrganization, TestService } from "../support/harness";

/** Every GraphQL parse in the process goes through graphql-js's parser module, Apollo's own included. */
describe("a GraphQL request's document is parsed once", () => {
  let t: TestService;
  let org: TestOrganization;
  let parses: jest.SpyInstance;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
    parses = jest.spyOn(parser, "parse");
  });
  afterAll(async () => {
    parses.mockRestore();
    await t.stop();
  });
  beforeEach(() => parses.mockClear());

  it("once for a text seen the first time, by the guard; not again by Apollo, nor for the next request of the same text", async () => {
    const query = "query Locations($first: Int) { locations(first: $first) { nodes { id name } } }";
    const first = await t.gql(org.token, query, { first: 5 });
    expect(first.errors).toBeUndefined();
    expect(parses).toHaveBeenCalledTimes(1);
    const again = await t.gql(org.token, query, { first: 3 });
    expect(again.errors).toBeUndefined();
    expect(parses).toHaveBeenCalledTimes(1);
  });

  it("once for a mutation kept under an Idempotency-Key", async () => {
    const res = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${org.token}`)
      .set("Idempotency-Key", "one-parse-1")
      .send({ query: 'mutation { createRole(input: { name: "Parsed once" }) { id } }' });
    expect(res.body.errors).toBeUndefined();
    expect(parses).toHaveBeenCalledTimes(1);
  });

  it("once for a document validation refuses, answered in the words Apollo used", async () => {
    const query = "{ organization { id noSuchField } }";
    const refused = await t.http.post("/graphql").set("Authorization", `Bearer ${org.token}`).set("X-Request-Id", "one-parse-2").send({ query });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      {
        message: 'Cannot query field "noSuchField" on type "Organization".',
        locations: [{ line: 1, column: 21 }],
        extensions: { code: "BAD_REQUEST", details: [], requestId: "one-parse-2" },
      },
    ]);
    expect(parses).toHaveBeenCalledTimes(1);
  });

  it("never for a text without a token that is longer than a public operation can be", async () => {
    const selection = Array.from({ length: 1000 }, () => "accessToken").join(" ");
    const query = `mutation { exchangeToken(input: { apiKey: "k" }) { ${selection} } }`;
    expect(query.length).toBeGreaterThan(PUBLIC_DOCUMENT_MAX_LENGTH);
    const refused = await t.http.post("/graphql").send({ query });
    expect([refused.status, refused.body.errors?.[0]?.extensions?.code]).toEqual([401, "UNAUTHENTICATED"]);
    expect(parses).not.toHaveBeenCalled();
    const short = await t.http.post("/graphql").send({ query: 'mutation { exchangeToken(input: { apiKey: "k" }) { accessToken } }' });
    expect(short.status).not.toBe(500);
    expect(parses).toHaveBeenCalledTimes(1);
  });

  it("never for a REST call: its operation was compiled at start", async () => {
    expect((await t.as(org.token).get(`/api/organizations/${org.id}/locations`)).status).toBe(200);
    expect(parses).not.toHaveBeenCalled();
  });
});
