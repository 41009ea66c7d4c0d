import { RestRoute } from "../../rest/route";

const ORG = "/api/organizations/{org}";
const TAG = "Calendar feeds";

export const calendarFeedRoutes: RestRoute[] = [
  {
    method: "POST",
    path: `${ORG}/staff/{staffId}/calendar-feed`,
    summary: "Make a staff member's calendar feed, or replace its secret URL (shown once)",
    tag: TAG,
    status: 201,
    operation: "mutation createStaffCalendarFeed($staffId: ID!) { createStaffCalendarFeed(staffId: $staffId) { id url } }",
  },
  {
    method: "DELETE",
    path: `${ORG}/staff/{staffId}/calendar-feed`,
    summary: "Revoke a staff member's calendar feed",
    tag: TAG,
    status: 204,
    operation: "mutation revokeStaffCalendarFeed($staffId: ID!) { revokeStaffCalendarFeed(staffId: $staffId) }",
  },
  {
    method: "POST",
    path: `${ORG}/locations/{locationId}/calendar-feed`,
    summary: "Make a location's calendar feed, or replace its secret URL (shown once)",
    tag: TAG,
    status: 201,
    operation: "mutation createLocationCalendarFeed($locationId: ID!) { createLocationCalendarFeed(locationId: $locationId) { id url } }",
  },
  {
    method: "DELETE",
    path: `${ORG}/locations/{locationId}/calendar-feed`,
    summary: "Revoke a location's calendar feed",
    tag: TAG,
    status: 204,
    operation: "mutation revokeLocationCalendarFeed($locationId: ID!) { revokeLocationCalendarFeed(locationId: $locationId) }",
  },
];
