import { RestRoute } from "../../rest/route";
import { VIOLATION_FIELDS } from "../compliance";

const BASE = "/api/organizations/{org}/locations/{locationId}/schedules";
const TAG = "Schedules";
const BREAKS = "breaks { id typeId name paid durationMinutes startTime endTime }";
const TIMES = "startTime endTime utcStartTime utcEndTime utcOffset timezone duration";
/** Publishing answers the entries without their breaks, which the entries themselves give. */
const ENTRY_SUMMARY = `id organizationId locationId workerId roleId templateId ${TIMES} note openShiftId createdAt updatedAt`;
const ENTRY = `${ENTRY_SUMMARY} ${BREAKS}`;
const DRAFT = `id organizationId locationId action entryId generationId workerId roleId templateId ${TIMES} note ${BREAKS} createdAt updatedAt`;
const FILTERS = "$startDate: String, $endDate: String, $workerId: ID, $roleId: ID";
const FILTER_ARGS = "startDate: $startDate, endDate: $endDate, workerId: $workerId, roleId: $roleId";

/** Creating and changing one answers the labor rules it breaks beside it. */
const WITH_VIOLATIONS = `violations { ${VIOLATION_FIELDS} }`;

/** A published entry's change answers, beside it, the predictability pay it just recorded. */
const WITH_CHANGE_PAY = `${WITH_VIOLATIONS} predictabilityPay { ruleId change hours amount citation }`;

/** List, create, read, change and delete of entries or drafts under `path` (`changed`: what a create or change answers beside the record). */
function plannedRoutes(
  path: string,
  label: { one: string; many: string },
  fields: string,
  names: { list: string; one: string; type: string },
  changed: string,
): RestRoute[] {
  const locationAndId = "$locationId: ID!, $id: ID!";
  return [
    {
      method: "GET",
      path,
      summary: `List a location's ${label.many} by start (startDate, endDate, workerId, roleId; paginated: limit, cursor)`,
      tag: TAG,
      list: true,
      operation: `query ${names.list}($locationId: ID!, $first: Int, $after: String, ${FILTERS}) { ${names.list}(locationId: $locationId, first: $first, after: $after, ${FILTER_ARGS}) { nodes { ${fields} } pageInfo { hasNextPage endCursor } } }`,
    },
    {
      method: "POST",
      path,
      summary: `Create a ${label.one}`,
      tag: TAG,
      status: 201,
      operation: `mutation create${names.type}($locationId: ID!, $input: Create${names.type}Input!) { create${names.type}(locationId: $locationId, input: $input) { ${fields} ${changed} } }`,
    },
    {
      method: "GET",
      path: `${path}/{id}`,
      summary: `Read a ${label.one}`,
      tag: TAG,
      operation: `query ${names.one}(${locationAndId}) { ${names.one}(locationId: $locationId, id: $id) { ${fields} } }`,
    },
    {
      method: "PATCH",
      path: `${path}/{id}`,
      summary: `Change a ${label.one}`,
      tag: TAG,
      operation: `mutation update${names.type}(${locationAndId}, $input: Update${names.type}Input!) { update${names.type}(locationId: $locationId, id: $id, input: $input) { ${fields} ${changed} } }`,
    },
    {
      method: "DELETE",
      path: `${path}/{id}`,
      summary: `Remove a ${label.one}`,
      tag: TAG,
      status: 204,
      operation: `mutation delete${names.type}(${locationAndId}) { delete${names.type}(locationId: $locationId, id: $id) }`,
    },
  ];
}

const [listEntries, createPublishedEntry, ...entryById] = plannedRoutes(
  BASE,
  { one: "published schedule entry", many: "published schedule entries" },
  ENTRY,
  { list: "scheduleEntries", one: "scheduleEntry", type: "ScheduleEntry" },
  WITH_CHANGE_PAY,
);

/** Written straight to the published schedule: say so, for a client that meant to plan ahead. */
const createEntry: RestRoute = {
  ...createPublishedEntry,
  summary:
    "Add a published schedule entry at once, bypassing drafts and publishing (to plan ahead, create drafts under …/schedules/drafts and publish the range with …/schedules/publish)",
};

// The fixed paths come before …/schedules/{id}, which would otherwise take "drafts" for an id.
export const scheduleRoutes: RestRoute[] = [
  listEntries,
  createEntry,
  {
    method: "POST",
    path: `${BASE}/bulk-copy`,
    summary: "Copy the published entries of a date range to a new start date, as drafts (local times kept)",
    tag: TAG,
    status: 201,
    operation: `mutation bulkCopySchedule($locationId: ID!, $input: BulkCopyScheduleInput!) { bulkCopySchedule(locationId: $locationId, input: $input) { drafts { ${DRAFT} } } }`,
  },
  {
    method: "POST",
    path: `${BASE}/publish`,
    summary: "Publish every draft that starts in the date range, and the range's open shifts, at once; answers what changed",
    tag: TAG,
    operation: `mutation publishSchedule($locationId: ID!, $input: PublishScheduleInput!) { publishSchedule(locationId: $locationId, input: $input) { startDate endDate added { ${ENTRY_SUMMARY} } changed { ${ENTRY_SUMMARY} } removed { ${ENTRY_SUMMARY} } openShiftIds ${WITH_VIOLATIONS} } }`,
  },
  ...plannedRoutes(
    `${BASE}/drafts`,
    { one: "draft schedule entry", many: "draft schedule entries" },
    DRAFT,
    { list: "scheduleDrafts", one: "scheduleDraft", type: "ScheduleDraft" },
    WITH_VIOLATIONS,
  ),
  ...entryById,
];
