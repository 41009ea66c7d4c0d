import { TestService } from "../support/harness";
import { timeOffWorkplace, TimeOffWorkplace } from "../support/workplace";

const unusedPerHour = { hoursEarned: 0, hoursWorked: 0, isLimitedMaximumBalance: false, maximumHoursBalance: 0 };
const unusedFixed = { hours: 0, daysEarned: 0, accrualCycle: "AllAtOnce", accrualFrequency: null, accrualDay: null, accrualDate: "1st" };

/** Every accrual shape, each with zeros in the branch it does not use, as spec 2.2 shows a policy. */
const SHAPES: Record<string, object> = {
  "all at once, in hours": { isFixedAmount: true, fixedAmount: { hours: 40, accrualCycle: "AllAtOnce" }, perHourEarnings: unusedPerHour },
  "all at once, in days": {
    isFixedAmount: true,
    fixedAmount: { daysEarned: 5, accrualCycle: "AllAtOnce", accrualDate: "15th" },
    perHourEarnings: unusedPerHour,
  },
  "every week": {
    isFixedAmount: true,
    fixedAmount: { hours: 52, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Sunday" },
    perHourEarnings: unusedPerHour,
  },
  "every two weeks": {
    isFixedAmount: true,
    fixedAmount: { hours: 26, accrualCycle: "Periodic", accrualFrequency: "EveryTwoWeeks" },
    perHourEarnings: unusedPerHour,
  },
  "every month": {
    isFixedAmount: true,
    fixedAmount: { hours: 24, accrualCycle: "Periodic", accrualFrequency: "EveryMonth", accrualDate: "31st" },
    perHourEarnings: unusedPerHour,
  },
  "per hour worked": {
    isFixedAmount: false,
    fixedAmount: unusedFixed,
    perHourEarnings: { hoursEarned: 1, hoursWorked: 30, isLimitedMaximumBalance: false, maximumHoursBalance: 0 },
  },
  "per hour worked, up to a maximum": {
    isFixedAmount: false,
    fixedAmount: unusedFixed,
    perHourEarnings: { hoursEarned: 1, hoursWorked: 40, isLimitedMaximumBalance: true, maximumHoursBalance: 80 },
  },
  "no branch given": { isFixedAmount: true },
};

describe("time-off policies in the documented shape", () => {
  let t: TestService;
  let w: TimeOffWorkplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-02T15:00:00.000Z" });
    w = await timeOffWorkplace(t);
  });
  afterAll(() => t.stop());
  const api = () => t.as(w.org.token);

  it.each(Object.entries(SHAPES))("accepts %s, and a read sent back as a change answers 200 and changes nothing", async (_shape, limitSettings) => {
    const created = await api().post(`${w.base}/policies`, { name: "Leave", typeId: w.types.Vacation, units: "hours", limitSettings });
    expect(created.status).toBe(201);
    const path = `${w.base}/policies/${created.body.id}`;
    const read = await api().get(path);
    const { id, organizationId, assignedStaffCount, status, type, createdAt, updatedAt, ...fields } = read.body;
    const patched = await api().patch(path, fields);
    expect(patched.status).toBe(200);
    const { updatedAt: after, ...unchanged } = patched.body;
    expect(unchanged).toEqual({ id, organizationId, assignedStaffCount, status, type, createdAt, ...fields });
    expect((await api().get(path)).body).toEqual(patched.body);
    // The same through GraphQL.
    const gql = await t.gql(
      w.org.token,
      `mutation($id: ID!, $limitSettings: LimitSettingsInput) { updateTimeOffPolicy(id: $id, input: { limitSettings: $limitSettings }) { limitSettings { isFixedAmount } } }`,
      { id, limitSettings: fields.limitSettings },
    );
    expect(gql.errors).toBeUndefined();
  });

  it("still checks the branch the policy uses", async () => {
    const refused = await api().post(`${w.base}/policies`, {
      name: "Leave",
      typeId: w.types.Vacation,
      limitSettings: { isFixedAmount: false, fixedAmount: unusedFixed, perHourEarnings: unusedPerHour },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toMatch(/hoursWorked/);
  });
});
