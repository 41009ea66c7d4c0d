import { RestRoute } from "../../rest/route";

const TAG = "Time off";
const ORG = "/api/organizations/{org}";

const POLICY = `id organizationId name allowNegativeBalance assignedStaffCount carryoverLimit
  defaultSettings { assignedStaff { type value } } fullDayDuration
  limitSettings {
    isFixedAmount
    fixedAmount { hours daysEarned accrualCycle accrualFrequency accrualDay accrualDate }
    perHourEarnings { hoursEarned hoursWorked isLimitedMaximumBalance maximumHoursBalance }
  }
  paid requiresApproval status type { id name type } typeId units createdAt updatedAt`;

/** Spec 2.3, and in lists the policy and worker it belongs to. */
const WORKER_POLICY = "id name hoursBalance isIncluded availableBalance";
const WORKER_POLICY_LISTED = `${WORKER_POLICY} policyId workerId`;

const REQUEST = `id locationId workerId policyId policy { ${POLICY} } startTime endTime status note
  hourConfiguration { date hours } timezone utcOffset isAllDay submittedAt remainingBalance totalHours
  workerPolicy { ${WORKER_POLICY} }`;

const SETTINGS = "defaultFullDayHours weekStart allowPastRequests minimumNoticeDays workersSeeBalances";

const REQUESTS = `${ORG}/time-off-requests`;

export const timeOffRoutes: RestRoute[] = [
  {
    method: "GET",
    path: `${ORG}/policy-types`,
    summary: "List all policy types",
    tag: TAG,
    operation: `query timeOffPolicyTypes { timeOffPolicyTypes { id name type } }`,
  },
  {
    method: "GET",
    path: `${ORG}/policies`,
    summary: "List time-off policies (Active only unless fetchAllStatuses=true)",
    tag: TAG,
    operation: `query timeOffPolicies($fetchAllStatuses: Boolean) { timeOffPolicies(fetchAllStatuses: $fetchAllStatuses) { ${POLICY} } }`,
  },
  {
    method: "POST",
    path: `${ORG}/policies`,
    summary: "Create a policy (Draft)",
    tag: TAG,
    status: 201,
    operation: `mutation createTimeOffPolicy($input: CreateTimeOffPolicyInput!) { createTimeOffPolicy(input: $input) { ${POLICY} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/policies/{id}`,
    summary: "Retrieve a policy",
    tag: TAG,
    operation: `query timeOffPolicy($id: ID!) { timeOffPolicy(id: $id) { ${POLICY} } }`,
  },
  {
    method: "PATCH",
    path: `${ORG}/policies/{id}`,
    summary: "Update a time-off policy; workerPolicies include, exclude and set balances",
    tag: TAG,
    operation: `mutation updateTimeOffPolicy($id: ID!, $input: UpdateTimeOffPolicyInput!) { updateTimeOffPolicy(id: $id, input: $input) { ${POLICY} } }`,
  },
  {
    method: "DELETE",
    path: `${ORG}/policies/{id}`,
    summary: "Remove a policy (409 while pending or approved requests use it); its ledger stays for the audit",
    tag: TAG,
    status: 204,
    operation: "mutation deleteTimeOffPolicy($id: ID!) { deleteTimeOffPolicy(id: $id) }",
  },
  {
    method: "PUT",
    path: `${ORG}/policies/{policyId}/workers/{workerId}/balance`,
    summary: "Set one included worker's balance (body: {hoursBalance, note?}); the difference is an adjustment row in the ledger",
    tag: TAG,
    operation: `mutation setTimeOffBalance($policyId: ID!, $workerId: ID!, $input: SetTimeOffBalanceInput!) {
      setTimeOffBalance(policyId: $policyId, workerId: $workerId, input: $input) { ${WORKER_POLICY_LISTED} } }`,
  },
  {
    method: "PATCH",
    path: `${ORG}/policies/{id}/activate`,
    summary: "Activate a policy",
    tag: TAG,
    operation: `mutation activateTimeOffPolicy($id: ID!) { activateTimeOffPolicy(id: $id) { ${POLICY} } }`,
  },
  {
    method: "PATCH",
    path: `${ORG}/policies/{id}/deactivate`,
    summary: "Deactivate a policy",
    tag: TAG,
    operation: `mutation deactivateTimeOffPolicy($id: ID!) { deactivateTimeOffPolicy(id: $id) { ${POLICY} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/worker-policies`,
    summary: "List all worker policies (paginated: limit, cursor)",
    tag: TAG,
    list: true,
    operation: `query workerPolicies($first: Int, $after: String, $policyId: ID, $workerId: ID) {
      workerPolicies(first: $first, after: $after, policyId: $policyId, workerId: $workerId) { nodes { ${WORKER_POLICY_LISTED} } pageInfo { hasNextPage endCursor } } }`,
  },
  {
    method: "PATCH",
    path: `${ORG}/worker-policies/{id}`,
    summary:
      "Include or exclude a worker by hand and set the balance (body: {hoursBalance?, isIncluded?, note?}); a balance change is an adjustment row in the ledger",
    tag: TAG,
    operation: `mutation updateWorkerPolicy($id: ID!, $input: UpdateWorkerPolicyInput!) { updateWorkerPolicy(id: $id, input: $input) { ${WORKER_POLICY_LISTED} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/worker-policies/{id}/ledger`,
    summary: "Every movement of one worker policy's balance, oldest first (paginated: limit, cursor)",
    tag: TAG,
    list: true,
    operation: `query timeOffLedger($id: ID!, $first: Int, $after: String) {
      timeOffLedger(workerPolicyId: $id, first: $first, after: $after) {
        nodes { id workerPolicyId kind hours effectiveDate periodKey requestId shiftId note recordedBy recordedAt } pageInfo { hasNextPage endCursor } } }`,
  },
  {
    method: "POST",
    path: `${ORG}/time-off-accruals`,
    summary: "Apply the accruals due up to a day (body: {until?}, default today); repeating it adds nothing",
    tag: TAG,
    operation: "mutation accrueTimeOff($until: String) { accrueTimeOff(until: $until) { entries workerPolicies } }",
  },
  {
    method: "GET",
    path: `${ORG}/staff/{workerId}/policies`,
    summary: "Get a worker's policies",
    tag: TAG,
    operation: `query staffTimeOffPolicies($workerId: ID!) { staffTimeOffPolicies(workerId: $workerId) { ${WORKER_POLICY_LISTED} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/time-off-settings`,
    summary: "Read the organization's time-off settings",
    tag: TAG,
    operation: `query timeOffSettings { timeOffSettings { ${SETTINGS} } }`,
  },
  {
    method: "PATCH",
    path: `${ORG}/time-off-settings`,
    summary: "Change the organization's time-off settings",
    tag: TAG,
    operation: `mutation updateTimeOffSettings($input: UpdateTimeOffSettingsInput!) { updateTimeOffSettings(input: $input) { ${SETTINGS} } }`,
  },
  // Before …/{id}: the fixed path must win.
  {
    method: "GET",
    path: `${REQUESTS}/time-offs`,
    summary: "List approved time-offs (workerId, startTime, endTime; paginated: limit, cursor)",
    tag: TAG,
    list: true,
    operation: `query approvedTimeOffs($first: Int, $after: String, $workerId: ID, $startTime: String, $endTime: String) {
      approvedTimeOffs(first: $first, after: $after, workerId: $workerId, startTime: $startTime, endTime: $endTime) { nodes { ${REQUEST} } pageInfo { hasNextPage endCursor } } }`,
  },
  {
    method: "GET",
    path: REQUESTS,
    summary: "List time-off requests (status, workerId, policyId; paginated: limit, cursor)",
    tag: TAG,
    list: true,
    operation: `query timeOffRequests($first: Int, $after: String, $status: String, $workerId: ID, $policyId: ID) {
      timeOffRequests(first: $first, after: $after, status: $status, workerId: $workerId, policyId: $policyId) { nodes { ${REQUEST} } pageInfo { hasNextPage endCursor } } }`,
  },
  {
    method: "POST",
    path: REQUESTS,
    summary: "Create a time-off request",
    tag: TAG,
    status: 201,
    operation: `mutation createTimeOffRequest($input: CreateTimeOffRequestInput!) { createTimeOffRequest(input: $input) { ${REQUEST} } }`,
  },
  {
    method: "GET",
    path: `${REQUESTS}/{id}`,
    summary: "Get a time-off request",
    tag: TAG,
    operation: `query timeOffRequest($id: ID!) { timeOffRequest(id: $id) { ${REQUEST} } }`,
  },
  {
    method: "PUT",
    path: `${REQUESTS}/{id}`,
    summary: "Update a pending time-off request",
    tag: TAG,
    operation: `mutation updateTimeOffRequest($id: ID!, $input: UpdateTimeOffRequestInput!) { updateTimeOffRequest(id: $id, input: $input) { ${REQUEST} } }`,
  },
  {
    method: "DELETE",
    path: `${REQUESTS}/{id}`,
    summary: "Delete (cancel) a time-off request; approved hours are given back",
    tag: TAG,
    operation: `mutation deleteTimeOffRequest($id: ID!) { deleteTimeOffRequest(id: $id) { ${REQUEST} } }`,
  },
  {
    method: "POST",
    path: `${REQUESTS}/{id}/approve`,
    summary: "Approve a pending time-off request",
    tag: TAG,
    operation: `mutation approveTimeOffRequest($id: ID!) { approveTimeOffRequest(id: $id) { ${REQUEST} } }`,
  },
  {
    method: "POST",
    path: `${REQUESTS}/{id}/decline`,
    summary: "Decline a pending time-off request (body: {reason?})",
    tag: TAG,
    operation: `mutation declineTimeOffRequest($id: ID!, $input: DeclineTimeOffRequestInput) { declineTimeOffRequest(id: $id, input: $input) { ${REQUEST} } }`,
  },
];
