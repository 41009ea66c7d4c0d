import { Writable } from "node:stream";
import ICAL from "ical.js";
import { createLogger } from "../../src/http/logger";
import { TestService } from "../support/harness";
import { addPastEntries } from "../support/history";
import { countStatements, planOf } from "../support/statements";
import { fileTimeOff } from "../support/time-off";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

/** Every line the service logs, as written. */
class CapturedLog extends Writable {
  text = "";
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

interface FeedEvent {
  uid: string;
  sequence: number;
  status: string;
  summary: string;
  description: string | null;
  start: Date;
  end: Date;
  startZone: string | null;
  allDay: boolean;
}

/** The feed read by a real iCalendar parser, its time zones registered from its own VTIMEZONEs. */
function parseFeed(text: string): { calendar: ICAL.Component; events: Map<string, FeedEvent> } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const events = new Map<string, FeedEvent>();
  for (const component of calendar.getAllSubcomponents("vevent")) {
    const event = new ICAL.Event(component);
    events.set(event.uid, {
      uid: event.uid,
      sequence: event.sequence,
      status: String(component.getFirstPropertyValue("status")),
      summary: event.summary,
      description: event.description ?? null,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
      startZone: (component.getFirstProperty("dtstart")!.getParameter("tzid") as string | undefined) ?? null,
      allDay: event.startDate.isDate,
    });
  }
  return { calendar, events };
}

describe("calendar feeds", () => {
  const log = new CapturedLog();
  let t: TestService;
  let w: ScheduleWorkplace;
  let worker: { id: string; token: string };
  const secrets: string[] = [];
  beforeAll(async () => {
    t = await TestService.start({ logger: createLogger("info", log) });
    w = await scheduleWorkplace(t);
    worker = await w.worker();
  });
  afterAll(() => t?.stop());

  const feedPath = (url: string) => {
    const path = new URL(url).pathname;
    secrets.push(path.slice("/calendar/".length, -".ics".length));
    return path;
  };

  async function publish(startTime: string, endTime: string, note?: string): Promise<{ id: string; utcStartTime: string; utcEndTime: string }> {
    const api = t.as(w.manager);
    const draft = await api.post(`${w.base}/schedules/drafts`, { workerId: worker.id, roleId: w.roleId, startTime, endTime, ...(note ? { note } : {}) });
    expect(draft.status).toBe(201);
    const date = startTime.slice(0, 10);
    expect((await api.post(`${w.base}/schedules/publish`, { startDate: date, endDate: date })).status).toBe(200);
    const entries = await api.get(`${w.base}/schedules?startDate=${date}&endDate=${date}&workerId=${worker.id}`);
    return entries.body[0];
  }

  it("answers a worker's own feed as RFC 5545: local times in the location's zone with its DST rules, time off, changes, removals", async () => {
    // The clock stands at 2026-03-02; New York moves to daylight time on 2026-03-08.
    const before = await publish("2026-03-06T09:00:00", "2026-03-06T17:00:00");
    const note = "Bring keys; open the back door, then the café's front — ask Zoë if the alarm code changed since the last time it was reset";
    const after = await publish("2026-03-09T09:00:00", "2026-03-09T17:30:00", note);
    const timeOffId = await fileTimeOff(t, w.org, worker.id, "2026-03-20T09:00:00-04:00", "2026-03-20T13:00:00-04:00", "approved");

    const created = await t.as(worker.token).post(`/api/organizations/${w.org.id}/staff/${worker.id}/calendar-feed`);
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/^http:\/\/localhost:\d+\/calendar\/wfc_[\w-]+\.ics$/);
    const path = feedPath(created.body.url);

    const read = await t.http.get(path);
    expect(read.status).toBe(200);
    expect(read.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    const text = read.text;
    // Every line ends with CRLF and holds at most 75 octets.
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.split("\r\n").filter((line) => Buffer.byteLength(line, "utf8") > 75)).toEqual([]);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(text).toContain("TZID:America/New_York");

    const { calendar, events } = parseFeed(text);
    expect(calendar.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid"))).toEqual(["America/New_York"]);
    const first = events.get(`schedule-entry-${before.id}@workforce`)!;
    const second = events.get(`schedule-entry-${after.id}@workforce`)!;
    expect(first.startZone).toBe("America/New_York");
    // Both sides of the change of offset land on the entries' own instants.
    expect([first.start.toISOString(), first.end.toISOString()]).toEqual([before.utcStartTime, before.utcEndTime]);
    expect([second.start.toISOString(), second.end.toISOString()]).toEqual([after.utcStartTime, after.utcEndTime]);
    expect(before.utcStartTime).toBe("2026-03-06T14:00:00.000Z");
    expect(after.utcStartTime).toBe("2026-03-09T13:00:00.000Z");
    expect(second.description).toBe(note);
    expect(second.summary).toBe("Cook at Main St");
    expect(first.status).toBe("CONFIRMED");
    const timeOff = events.get(`time-off-${timeOffId}@workforce`)!;
    expect([timeOff.start.toISOString(), timeOff.end.toISOString(), timeOff.status]).toEqual([
      "2026-03-20T13:00:00.000Z",
      "2026-03-20T17:00:00.000Z",
      "CONFIRMED",
    ]);

    // The same data answers the same tag, and a 304 to a program that has it.
    const tag = read.headers.etag;
    expect(tag).toMatch(/^"[\w-]+"$/);
    const again = await t.http.get(path).set("If-None-Match", tag);
    expect(again.status).toBe(304);

    // A change raises SEQUENCE and the tag; a removal stays in the feed as cancelled.
    const api = t.as(w.manager);
    expect((await api.patch(`${w.base}/schedules/${before.id}`, { endTime: "2026-03-06T18:00:00" })).status).toBe(200);
    expect((await api.delete(`${w.base}/schedules/${after.id}`)).status).toBe(204);
    const changed = await t.http.get(path).set("If-None-Match", tag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    const now = parseFeed(changed.text).events;
    const firstNow = now.get(first.uid)!;
    expect(firstNow.sequence).toBeGreaterThan(first.sequence);
    expect(firstNow.end.toISOString()).toBe("2026-03-06T23:00:00.000Z");
    expect(now.get(second.uid)!.status).toBe("CANCELLED");
    expect(now.get(second.uid)!.sequence).toBeGreaterThan(second.sequence);

    // Cancelled time off goes the same way.
    expect((await api.delete(`/api/organizations/${w.org.id}/time-off-requests/${timeOffId}`)).status).toBeLessThan(300);
    const cancelled = parseFeed((await t.http.get(path)).text).events.get(timeOff.uid)!;
    expect([cancelled.status, cancelled.sequence > timeOff.sequence]).toEqual(["CANCELLED", true]);
  });

  it("shows an entry given to someone else as cancelled in the feed it left", async () => {
    const entry = await publish("2026-03-12T09:00:00", "2026-03-12T17:00:00");
    const path = feedPath((await t.as(worker.token).post(`/api/organizations/${w.org.id}/staff/${worker.id}/calendar-feed`)).body.url);
    const uid = `schedule-entry-${entry.id}@workforce`;
    const shown = parseFeed((await t.http.get(path)).text).events.get(uid)!;
    expect(shown.status).toBe("CONFIRMED");
    const other = await w.worker();
    expect((await t.as(w.manager).patch(`${w.base}/schedules/${entry.id}`, { workerId: other.id })).status).toBe(200);
    const left = parseFeed((await t.http.get(path)).text).events.get(uid)!;
    expect([left.status, left.sequence > shown.sequence, left.start.toISOString()]).toEqual(["CANCELLED", true, entry.utcStartTime]);
  });

  it("replaces the URL when asked again, and answers 404 once revoked", async () => {
    const base = `/api/organizations/${w.org.id}/staff/${worker.id}/calendar-feed`;
    const first = feedPath((await t.as(worker.token).post(base)).body.url);
    const second = feedPath((await t.as(worker.token).post(base)).body.url);
    expect(second).not.toBe(first);
    expect((await t.http.get(first)).status).toBe(404);
    expect((await t.http.get(second)).status).toBe(200);
    expect((await t.as(worker.token).delete(base)).status).toBe(204);
    expect((await t.http.get(second)).status).toBe(404);
    expect((await t.as(worker.token).delete(base)).status).toBe(404);
    expect((await t.http.get("/calendar/wfc_not-a-feed.ics")).status).toBe(404);

    // A retry with the same Idempotency-Key gets the answer again, its secret URL redacted: the key's table never holds it.
    const made = await t.as(worker.token).post(base).set("Idempotency-Key", "feed-once");
    const replay = await t.as(worker.token).post(base).set("Idempotency-Key", "feed-once");
    feedPath(made.body.url);
    expect([replay.headers["idempotent-replayed"], replay.body.url, replay.body.id]).toEqual(["true", "[redacted]", made.body.id]);
  });

  // Row locks prove nothing on PGlite's single connection: this runs on PostgreSQL only.
  const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;
  onPostgres("leaves one feed when five ask for it at once, answering only the URL handed out last", async () => {
    const person = await w.worker();
    const base = `/api/organizations/${w.org.id}/staff/${person.id}/calendar-feed`;
    const made = await Promise.all(Array.from({ length: 5 }, () => t.as(w.manager).post(base)));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(made.map((r) => r.body.id)).size).toBe(1);
    const rows = await t.runtime.db.query("SELECT count(*)::int AS n FROM calendar_feeds WHERE staff_id = $1", [person.id]);
    expect(rows[0].n).toBe(1);
    const reads = await Promise.all(made.map((r) => t.http.get(feedPath(r.body.url))));
    expect(reads.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
  });

  it("lets a worker make only their own feed; a manager makes anyone's and a location's; another organization's ids are 404", async () => {
    const other = await w.worker();
    const base = `/api/organizations/${w.org.id}`;
    expect((await t.as(worker.token).post(`${base}/staff/${other.id}/calendar-feed`)).status).toBe(403);
    expect((await t.as(worker.token).post(`${base}/locations/${w.locationId}/calendar-feed`)).status).toBe(403);
    expect((await t.as(w.manager).post(`${base}/staff/${other.id}/calendar-feed`)).status).toBe(201);
    const location = await t.as(w.manager).post(`${base}/locations/${w.locationId}/calendar-feed`);
    expect(location.status).toBe(201);
    const events = parseFeed((await t.http.get(feedPath(location.body.url))).text).events;
    // The location's feed names whose shift each entry is.
    expect([...events.values()].filter((e) => e.status === "CONFIRMED").map((e) => e.summary)).toContain(
      `${(await t.as(w.manager).get(`${base}/staff/${worker.id}`)).body.name}: Cook`,
    );

    const stranger = await scheduleWorkplace(t, "Elsewhere");
    expect((await t.as(stranger.manager).post(`/api/organizations/${stranger.org.id}/staff/${worker.id}/calendar-feed`)).status).toBe(404);
    expect((await t.as(stranger.manager).post(`/api/organizations/${stranger.org.id}/locations/${w.locationId}/calendar-feed`)).status).toBe(404);
    expect((await t.as(stranger.manager).delete(`/api/organizations/${stranger.org.id}/locations/${w.locationId}/calendar-feed`)).status).toBe(404);
  });

  it("reads a feed's entries through the indexes of spans and removals, however long the schedule's history", async () => {
    const veteran = await w.worker();
    // A shift a day for 2,000 days before the feed's window.
    await addPastEntries(t, { organizationId: w.org.id, locationId: w.locationId, workerId: veteran.id, roleId: w.roleId }, "2020-01-01T14:00:00Z", 2000);
    const base = `/api/organizations/${w.org.id}`;
    const feeds = {
      worker: { subject: veteran.id, url: (await t.as(w.manager).post(`${base}/staff/${veteran.id}/calendar-feed`)).body.url },
      location: { subject: w.locationId, url: (await t.as(w.manager).post(`${base}/locations/${w.locationId}/calendar-feed`)).body.url },
    };
    for (const [kind, feed] of Object.entries(feeds)) {
      const statements = countStatements({ outsideRequests: true });
      const fetched = await t.http.get(feedPath(feed.url));
      const sql = statements.sql;
      statements.stop();
      expect(fetched.status).toBe(200);
      const entries = sql.find((q) => /FROM schedule_entries\b/.test(q))!;
      const window = ["2026-03-01T00:00:00Z", "2026-06-01T00:00:00Z", "2026-02-01T00:00:00Z"];
      const plan = await planOf(t.runtime.db, entries, [w.org.id, feed.subject, ...window]);
      // Live entries through an index of spans (the window bounds both ends), removed ones through the index of removals.
      expect([kind, plan]).toEqual([kind, expect.stringMatching(/"Index Cond":"[^"]*tstzrange\(start_time, end_time\) && /)]);
      expect([kind, plan]).toEqual([kind, expect.stringContaining('"Index Name":"ix_schedule_entries_removed"')]);
    }
  });

  it("keeps the secret out of the log, the audit trail and the events", async () => {
    await new Promise<void>((resolve) => t.runtime.logger.flush(() => resolve()));
    expect(secrets.length).toBeGreaterThan(3);
    expect(log.text).toContain('"url":"/calendar/[Redacted]"');
    const audit = JSON.stringify(await t.runtime.db.query("SELECT before, after FROM audit_events WHERE resource_type = 'calendar_feeds'"));
    const events = JSON.stringify(await t.runtime.db.query("SELECT type, object FROM events WHERE type LIKE 'calendar_feed.%'"));
    expect(events).toContain("calendar_feed.revoked");
    const hashes: { secret_hash: string }[] = await t.runtime.db.query("SELECT secret_hash FROM calendar_feeds");
    for (const secret of secrets) {
      expect(log.text.includes(secret)).toBe(false);
      expect(audit.includes(secret) || events.includes(secret)).toBe(false);
    }
    for (const { secret_hash: hash } of hashes) expect(audit.includes(hash) || events.includes(hash)).toBe(false);
  });
});
