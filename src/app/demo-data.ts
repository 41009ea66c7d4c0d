import { DateTime } from "luxon";
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
 * A demo organization that looks like a real one, created through the services as a manager
 * would: two locations in different time zones, roles with wages, a dozen staff members, break
 * types, last week's shifts, next week's published schedule, an open shift to claim, and vacation
 * and sick-leave policies with balances and a few requests.
 */
export async function seedDemoOrganization(services: Services, now: Date): Promise<DemoOrganization> {
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
  const staff = [];
  for (const [i, first] of FIRST_NAMES.entries()) {
    const role = roles[i % roles.length];
    const location = i % 2 === 0 ? boston : berlin;
    const member = await services.staff.create(actor, {
      name: `${first} ${String.fromCharCode(65 + i)}.`,
      externalEmployeeId: `EMP-${1000 + i}`,
      payrollId: `PR-${5000 + i}`,
      email: `${first.toLowerCase()}@example.com`,
      roleIds: [role.id],
      roleWages: i % 4 === 0 ? [{ roleId: role.id, hourlyWage: (role.hourlyWage ?? 15) + 2 }] : undefined,
      locationIds: [location.id],
      accessRoleId: i === 0 ? manager.id : undefined,
    });
    staff.push({ member, role, location });
  }

  for (const location of [boston, berlin]) {
    await services.breakTypes.create(actor, {
      locationId: location.id,
      name: "Lunch",
      durationMinutes: 30,
      frequencyMinutes: 360,
      paid: false,
      mandatory: true,
    });
    await services.breakTypes.create(actor, { locationId: location.id, name: "Rest", durationMinutes: 15, paid: true });
  }

  // Last week's shifts, 09:00–17:00 local with a 30-minute lunch, and next week as a published schedule.
  const lastMonday = DateTime.fromJSDate(now, { zone: "America/New_York" }).startOf("week").minus({ weeks: 1 });
  const day = (weekOffset: number, weekday: number, hour: number) =>
    lastMonday.plus({ weeks: weekOffset, days: weekday }).set({ hour }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
  for (const { member, role, location } of staff) {
    for (let weekday = 0; weekday < 5; weekday++) {
      await services.shifts.create(actor, {
        employeeId: member.id,
        locationId: location.id,
        roleId: role.id,
        startTime: day(0, weekday, 9),
        endTime: day(0, weekday, 17),
        breaks: [{ startTime: day(0, weekday, 12), endTime: `${day(0, weekday, 12).slice(0, 14)}30:00` }],
      });
      await services.scheduleDrafts.create(actor, location.id, {
        workerId: member.id,
        roleId: role.id,
        startTime: day(2, weekday, 9),
        endTime: day(2, weekday, 17),
        note: "Regular shift",
      });
    }
  }
  for (const location of [boston, berlin]) {
    const next = lastMonday.plus({ weeks: 2 });
    await services.openShifts.create(actor, location.id, {
      roleId: roles[1].id,
      startDate: day(2, 5, 10),
      endDate: day(2, 5, 16),
      staffCountRequired: 2,
      requireApproval: false,
    });
    await services.schedulePublishing.publish(actor, location.id, { startDate: next.toISODate()!, endDate: next.plus({ days: 6 }).toISODate()! });
  }
  // Time off: 80 h of vacation for everyone, sick leave accruing per hour worked, and requests.
  const types = await services.timeOffPolicies.listTypes(actor);
  const typeId = (type: string) => types.find((t) => t.type === type)!.id;
  const vacation = await services.timeOffPolicies.create(actor, {
    name: "Vacation",
    typeId: typeId("Vacation"),
    units: "days",
    fullDayDuration: 8,
    carryoverLimit: 40,
    defaultSettings: { assignedStaff: { type: "All" } },
    workerPolicies: staff.map(({ member }) => ({ workerId: member.id, hoursBalance: 80, isIncluded: true })),
  });
  await services.timeOffPolicies.activate(actor, vacation.id);
  const sick = await services.timeOffPolicies.create(actor, {
    name: "Sick leave",
    typeId: typeId("Sick"),
    units: "hours",
    requiresApproval: false,
    allowNegativeBalance: true,
    limitSettings: { isFixedAmount: false, perHourEarnings: { hoursEarned: 1, hoursWorked: 30, isLimitedMaximumBalance: true, maximumHoursBalance: 40 } },
    defaultSettings: { assignedStaff: { type: "All" } },
  });
  await services.timeOffPolicies.activate(actor, sick.id);
  const inAMonth = lastMonday.plus({ weeks: 5 });
  for (const [i, { member }] of staff.slice(0, 4).entries()) {
    const dayOff = inAMonth.plus({ days: i });
    const request = await services.timeOffRequests.create(actor, {
      workerId: member.id,
      policyId: vacation.id,
      startTime: dayOff.toFormat("yyyy-MM-dd'T'00:00:00"),
      endTime: dayOff.toFormat("yyyy-MM-dd'T'23:59:59"),
      isAllDay: true,
      note: i % 2 ? "Family visit" : "Dentist",
    });
    if (i < 2) await services.timeOffRequests.approve(actor, request.id);
  }

  const token = await services.access.exchangeToken({ apiKey });
  return { organizationId: organization.id, name, apiKey, token: token.accessToken, expiresIn: token.expiresIn };
}
