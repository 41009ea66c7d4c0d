/** The labor-law rule sets a location can follow. */
export enum CompliancePreset {
  NONE = "NONE",
  US_CA = "US_CA",
  US_OR = "US_OR",
  US_WA_SEATTLE = "US_WA_SEATTLE",
  US_NY_NYC_FAST_FOOD = "US_NY_NYC_FAST_FOOD",
  US_IL_CHICAGO = "US_IL_CHICAGO",
}

/**
 * Every numeric figure a compliance check and the pay rules read, with what it means and its
 * largest sensible value; null switches that rule off. Hours are decimal hours, amounts are in the
 * organization's currency, rates are multiples of the regular rate of pay. docs/compliance.md gives
 * each preset's figures with the law's text.
 */
export const NUMERIC_FIGURES = {
  minRestHours: { max: 24, description: "Shortest rest, in hours, between a shift and the next one on another day" },
  restPayRate: { max: 10, description: "Rate the law sets for hours worked inside the rest period (1.5: time and a half); the premium is the part above 1" },
  restPremiumAmount: { max: 10000, description: "Flat premium per shift that starts inside the rest period" },
  noticeDays: { max: 90, description: "Days of advance notice the schedule must give" },
  changePayHours: { max: 24, description: "Hours of regular pay owed for a change inside the notice window that adds or moves hours" },
  reductionPayRate: { max: 10, description: "Rate owed per scheduled hour lost, for a change inside the notice window that takes hours away" },
  changePayAmount: { max: 10000, description: "Flat premium for a change inside the notice window that adds or moves hours" },
  reductionPayAmount: { max: 10000, description: "Flat premium for a change inside the notice window that takes hours away" },
  lateNoticeDays: { max: 90, description: "Days of notice under which the late tier of flat premiums applies" },
  lateChangePayAmount: { max: 10000, description: "Flat premium of the late tier, for a change that adds or moves hours" },
  lateReductionPayAmount: { max: 10000, description: "Flat premium of the late tier, for a change that takes hours away" },
  maxShiftHours: { max: 24, description: "Longest shift that may be planned, start to end, in hours" },
  maxDailyHours: { max: 24, description: "Most hours of work (unpaid breaks excluded) that may be planned on one day" },
  maxWeeklyHours: { max: 168, description: "Most hours of work that may be planned in one workweek" },
  mealBreakAfterHours: { max: 24, description: "A shift longer than this many hours needs an unpaid meal break starting before the end of this hour" },
  mealBreakMinutes: { max: 240, description: "Shortest unpaid break, in minutes, that counts as a meal break" },
  secondMealBreakAfterHours: { max: 24, description: "A shift longer than this many hours needs a second meal break starting before the end of this hour" },
  mealPremiumHours: { max: 24, description: "Hours of regular pay owed for a shift whose recorded breaks missed the meal-break rule" },
  dailyOvertimeHours: { max: 24, description: "Hours of work in a workday beyond which hours are paid at 1.5x" },
  dailyDoubleTimeHours: { max: 24, description: "Hours of work in a workday beyond which hours are paid at 2x" },
  weeklyOvertimeHours: { max: 168, description: "Hours of work in a workweek beyond which hours are paid at 1.5x" },
} as const;

export type NumericFigure = keyof typeof NUMERIC_FIGURES;

/** The rules in force at a location; `seventhDayRule`: the seventh consecutive workday of a workweek pays its first daily-overtime hours at 1.5x and beyond at 2x. */
export type ComplianceFigures = { [K in NumericFigure]: number | null } & { seventhDayRule: boolean };

export type FigureName = keyof ComplianceFigures;

const NONE: ComplianceFigures = {
  minRestHours: null,
  restPayRate: null,
  restPremiumAmount: null,
  noticeDays: null,
  changePayHours: null,
  reductionPayRate: null,
  changePayAmount: null,
  reductionPayAmount: null,
  lateNoticeDays: null,
  lateChangePayAmount: null,
  lateReductionPayAmount: null,
  maxShiftHours: null,
  maxDailyHours: null,
  maxWeeklyHours: null,
  mealBreakAfterHours: null,
  mealBreakMinutes: null,
  secondMealBreakAfterHours: null,
  mealPremiumHours: null,
  dailyOvertimeHours: null,
  dailyDoubleTimeHours: null,
  weeklyOvertimeHours: null,
  seventhDayRule: false,
};

/** Rest, notice and predictability pay as Oregon and Seattle both write them. */
const REST_AND_NOTICE_1_5 = { minRestHours: 10, restPayRate: 1.5, noticeDays: 14, changePayHours: 1, reductionPayRate: 0.5 };

export const PRESET_FIGURES: Record<CompliancePreset, ComplianceFigures> = {
  [CompliancePreset.NONE]: NONE,
  [CompliancePreset.US_CA]: {
    ...NONE,
    mealBreakAfterHours: 5,
    mealBreakMinutes: 30,
    secondMealBreakAfterHours: 10,
    mealPremiumHours: 1,
    dailyOvertimeHours: 8,
    dailyDoubleTimeHours: 12,
    weeklyOvertimeHours: 40,
    seventhDayRule: true,
  },
  [CompliancePreset.US_OR]: { ...NONE, ...REST_AND_NOTICE_1_5 },
  [CompliancePreset.US_WA_SEATTLE]: { ...NONE, ...REST_AND_NOTICE_1_5 },
  [CompliancePreset.US_NY_NYC_FAST_FOOD]: {
    ...NONE,
    minRestHours: 11,
    restPremiumAmount: 100,
    noticeDays: 14,
    changePayAmount: 10,
    reductionPayAmount: 20,
    lateNoticeDays: 7,
    lateChangePayAmount: 15,
    lateReductionPayAmount: 45,
  },
  [CompliancePreset.US_IL_CHICAGO]: { ...NONE, minRestHours: 10, restPayRate: 1.25, noticeDays: 14, changePayHours: 1 },
};

export type RuleId = "REST_BETWEEN_SHIFTS" | "MAX_SHIFT_LENGTH" | "MAX_DAILY_HOURS" | "MAX_WEEKLY_HOURS" | "MEAL_BREAK" | "TIME_OFF" | "NOTICE_WINDOW";

/** The law each preset's rule comes from; a rule a preset does not set is the location's own limit. */
const CITATIONS: Partial<Record<CompliancePreset, Partial<Record<RuleId, string>>>> = {
  [CompliancePreset.US_CA]: { MEAL_BREAK: "Cal. Labor Code §512(a), §226.7" },
  [CompliancePreset.US_OR]: { REST_BETWEEN_SHIFTS: "ORS 653.442; OAR 839-026-0040", NOTICE_WINDOW: "ORS 653.436, ORS 653.455" },
  [CompliancePreset.US_WA_SEATTLE]: { REST_BETWEEN_SHIFTS: "SMC 14.22.035", NOTICE_WINDOW: "SMC 14.22.045, SMC 14.22.050" },
  [CompliancePreset.US_NY_NYC_FAST_FOOD]: { REST_BETWEEN_SHIFTS: "NYC Admin. Code §20-1231", NOTICE_WINDOW: "NYC Admin. Code §20-1221, §20-1222" },
  [CompliancePreset.US_IL_CHICAGO]: {
    REST_BETWEEN_SHIFTS: "Chicago Municipal Code ch. 6-110 (Fair Workweek), right to rest",
    NOTICE_WINDOW: "Chicago Municipal Code ch. 6-110 (Fair Workweek), predictability pay",
  },
};

/**
 * Where each preset's law exempts from predictability pay a change the workers themselves arranged:
 * `trade`, a swap or coverage they agreed between them; `request`, any other change a worker asked
 * for (giving a shift up). docs/shift-requests.md says which subsections were read in the text.
 */
const WORKER_CHANGE_EXEMPTIONS: Partial<Record<CompliancePreset, { trade: string; request: string }>> = {
  [CompliancePreset.US_OR]: { trade: "ORS 653.455(3)(b)", request: "ORS 653.455(3)" },
  [CompliancePreset.US_WA_SEATTLE]: { trade: "SMC 14.22.050", request: "SMC 14.22.050" },
  [CompliancePreset.US_NY_NYC_FAST_FOOD]: { trade: "NYC Admin. Code §20-1222(c)", request: "NYC Admin. Code §20-1222(c)" },
  [CompliancePreset.US_IL_CHICAGO]: { trade: "Chicago Municipal Code §6-110-050", request: "Chicago Municipal Code §6-110-050" },
};

/** Which figures each rule reads: overriding one makes the rule the location's own. */
const RULE_FIGURES: Record<RuleId, FigureName[]> = {
  REST_BETWEEN_SHIFTS: ["minRestHours", "restPayRate", "restPremiumAmount"],
  MAX_SHIFT_LENGTH: ["maxShiftHours"],
  MAX_DAILY_HOURS: ["maxDailyHours"],
  MAX_WEEKLY_HOURS: ["maxWeeklyHours"],
  MEAL_BREAK: ["mealBreakAfterHours", "mealBreakMinutes", "secondMealBreakAfterHours"],
  TIME_OFF: [],
  NOTICE_WINDOW: [
    "noticeDays",
    "changePayHours",
    "reductionPayRate",
    "changePayAmount",
    "reductionPayAmount",
    "lateNoticeDays",
    "lateChangePayAmount",
    "lateReductionPayAmount",
  ],
};

export const LOCATION_RULE = "Location compliance profile";
export const TIME_OFF_CITATION = "Approved time off";

/** A location's rules in force: its preset's figures with its overrides on top. */
export class ComplianceRules {
  readonly figures: ComplianceFigures;

  constructor(
    readonly preset: CompliancePreset,
    readonly overrides: Partial<ComplianceFigures>,
  ) {
    this.figures = { ...PRESET_FIGURES[preset], ...overrides };
  }

  /** The law a rule applies, or the location's own limit when it set the figure itself. */
  citation(rule: RuleId): string {
    if (rule === "TIME_OFF") return TIME_OFF_CITATION;
    const overridden = RULE_FIGURES[rule].some((f) => f in this.overrides);
    return (!overridden && CITATIONS[this.preset]?.[rule]) || LOCATION_RULE;
  }

  /** The law's exemption from predictability pay of a change workers arranged (a trade) or one asked for; the location's own notice rule cites itself. */
  workerChangeExemption(kind: "trade" | "request"): string {
    const notice = this.citation("NOTICE_WINDOW");
    return notice === LOCATION_RULE ? notice : (WORKER_CHANGE_EXEMPTIONS[this.preset]?.[kind] ?? notice);
  }
}
