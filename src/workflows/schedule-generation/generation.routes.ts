import { RestRoute } from "../../rest/route";

const TAG = "Schedule generation";
const ORG = "/api/organizations/{org}";
const RESULT =
  "objective coverUnder coverOver preferenceOn preferenceOff cost premiums hardViolations { workerId rule date message } coverage { date templateId required assigned } " +
  "unfilled { date templateId missing reasons { code count } } people { workerId minutes shifts weekends minMinutes maxMinutes maxWeekends } draftIds searchSeconds";
export const GENERATION_FIELDS = `id organizationId locationId status startDate endDate mode timeLimitSeconds cancelRequested attempts progress { elapsedSeconds bestObjective moves } result { ${RESULT} } error startedAt finishedAt createdAt updatedAt`;

export const generationRoutes: RestRoute[] = [
  {
    method: "POST",
    path: `${ORG}/locations/{locationId}/schedules/generate`,
    summary: "Queue the generation of drafts for a date range (answers at once; GET the generation for its progress and result)",
    tag: TAG,
    status: 202,
    operation: `mutation generateSchedule($locationId: ID!, $input: GenerateScheduleInput!) { generateSchedule(locationId: $locationId, input: $input) { ${GENERATION_FIELDS} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/schedule-generations/{id}`,
    summary: "A schedule generation: status, progress while it runs, and its explained result",
    tag: TAG,
    operation: `query scheduleGeneration($id: ID!) { scheduleGeneration(id: $id) { ${GENERATION_FIELDS} } }`,
  },
  {
    method: "POST",
    path: `${ORG}/schedule-generations/{id}/cancel`,
    summary: "Cancel a queued or running generation (it writes nothing)",
    tag: TAG,
    operation: `mutation cancelScheduleGeneration($id: ID!) { cancelScheduleGeneration(id: $id) { ${GENERATION_FIELDS} } }`,
  },
];
