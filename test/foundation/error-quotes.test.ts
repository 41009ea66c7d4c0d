import { MAX_ERROR_TEXT } from "../../src/errors/client-error";
import { TestOrganization, TestService } from "../support/harness";

/** The longest an error body may be when every text in it is capped (a few details, the request id). */
const SMALL = 8 * MAX_ERROR_TEXT;

describe("error bodies quote little of what was sent", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("caps what a REST refusal quotes of a long field name, value and path", async () => {
    const long = "x".repeat(600_000);
    const field = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Quoted", timezone: "UTC", [long]: 1 });
    expect(field.status).toBe(400);
    expect(JSON.stringify(field.body).length).toBeLessThan(SMALL);
    expect(field.body.error.details.some((d: { message: string }) => d.message.includes("more characters"))).toBe(true);
    const zone = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Quoted", timezone: long });
    expect(zone.status).toBe(400);
    expect(JSON.stringify(zone.body).length).toBeLessThan(SMALL);
    const path = await t.as(org.token).get(`/api/${"y".repeat(6000)}`);
    expect(path.status).toBe(404);
    expect(JSON.stringify(path.body).length).toBeLessThan(SMALL);
  });

  it("caps what a GraphQL error quotes of a variable's value", async () => {
    const answer = await t.gql(org.token, "mutation ($input: CreateLocationInput!) { createLocation(input: $input) { id } }", {
      input: { name: "Quoted", timezone: "UTC", extra: "z".repeat(600_000) },
    });
    expect(answer.errors?.length).toBeGreaterThan(0);
    expect(JSON.stringify(answer).length).toBeLessThan(SMALL);
  });
});
