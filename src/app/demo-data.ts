import { Actor } from "../auth/actor";
import { ALL_PERMISSIONS } from "../auth/permissions";
import { Services } from "./services";

export interface DemoOrganization {
  organizationId: string;
  name: string;
  apiKey: string;
  token: string;
  expiresIn: number;
}

const FIRST_NAMES = ["Ava", "Ben", "Chloe", "Diego", "Emma", "Farid", "Grace", "Hiro", "Isla", "Jonas", "Kemi", "Liam"];

/**
 * A demo organization that looks like a real one: two locations in different time zones, roles
 * with wages, and a dozen staff members, created through the services as a manager would.
 */
export async function seedDemoOrganization(services: Services): Promise<DemoOrganization> {
  const name = "Harbor & Pine Bistro";
  const { organization, apiKey } = await services.organizations.createTrusted({ name, timezone: "America/New_York" });
  const actor: Actor = { organizationId: organization.id, apiKeyId: "seed", staffId: null, permissions: new Set(ALL_PERMISSIONS) };
  const accessRoles = await services.access.listAccessRoles(actor);
  const [boston, berlin] = [
    await services.locations.create(actor, { name: "Boston Harbor", timezone: "America/New_York", externalId: "BOS-1", address: "1 Harbor St, Boston" }),
    await services.locations.create(actor, { name: "Berlin Mitte", timezone: "Europe/Berlin", externalId: "BER-1", address: "Torstraße 1, Berlin" }),
  ];
  const roles = [
    await services.roles.create(actor, { name: "Cook", hourlyWage: 19.5 }),
    await services.roles.create(actor, { name: "Server", hourlyWage: 15.25 }),
    await services.roles.create(actor, { name: "Host", hourlyWage: 14 }),
  ];
  const manager = accessRoles.find((r) => r.name === "Manager")!;
  for (const [i, first] of FIRST_NAMES.entries()) {
    const role = roles[i % roles.length];
    await services.staff.create(actor, {
      name: `${first} ${String.fromCharCode(65 + i)}.`,
      externalEmployeeId: `EMP-${1000 + i}`,
      payrollId: `PR-${5000 + i}`,
      email: `${first.toLowerCase()}@example.com`,
      roleIds: [role.id],
      roleWages: i % 4 === 0 ? [{ roleId: role.id, hourlyWage: (role.hourlyWage ?? 15) + 2 }] : undefined,
      locationIds: [i % 2 === 0 ? boston.id : berlin.id],
      accessRoleId: i === 0 ? manager.id : undefined,
    });
  }
  const token = await services.access.exchangeToken({ apiKey });
  return { organizationId: organization.id, name, apiKey, token: token.accessToken, expiresIn: token.expiresIn };
}
