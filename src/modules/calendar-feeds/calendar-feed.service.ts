import { Actor, requirePermission, requireSelfOr } from "../../auth/actor";
import { hashSecret, newSecret } from "../../auth/secrets";
import { requireUuid } from "../../common/ids";
import { ServiceDeps } from "../../common/services";
import { notFound } from "../../errors/app-error";
import { feedCalendar, feedTag, feedWindow } from "./calendar-feed.rules";
import {
  deleteFeed,
  FeedRow,
  FeedSubject,
  selectDepartures,
  selectEntries,
  selectFeedBySecret,
  selectTimeOff,
  subjectExists,
  upsertFeed,
} from "./calendar-feed.store";
import { CalendarFeedLink } from "./calendar-feed.types";

/** The path a feed is read at; the secret in it is the only credential a calendar program can send. */
export const FEED_PATH = "/calendar";
const SECRET_PREFIX = "wfc";

/** The feed's text and its validator. */
export interface RenderedFeed {
  text: string;
  etag: string;
}

/**
 * Calendar feeds: a staff member's or a location's published schedule and approved time off, read
 * by calendar programs at a secret URL. The secret is shown once and kept as its hash; asking again
 * replaces it, revoking deletes it.
 */
export class CalendarFeedService {
  constructor(private readonly deps: ServiceDeps) {}

  /** A worker may have a feed of their own; a manager of anyone and of any location. */
  private checked(actor: Actor, subject: FeedSubject): FeedSubject {
    if ("staffId" in subject) {
      const staffId = requireUuid(subject.staffId, "Staff member");
      requireSelfOr(actor, "calendar:manage", "calendar:self", staffId);
      return { staffId };
    }
    requirePermission(actor, "calendar:manage");
    return { locationId: requireUuid(subject.locationId, "Location") };
  }

  /** Makes the subject's feed, or replaces its secret: the URL answered is the only time the secret is shown. */
  async create(actor: Actor, subject: FeedSubject): Promise<CalendarFeedLink> {
    const checked = this.checked(actor, subject);
    const secret = newSecret(SECRET_PREFIX);
    const id = await this.deps.unitOfWork.run(async (manager) => {
      if (!(await subjectExists(manager, actor.organizationId, checked))) throw notFound("staffId" in checked ? "Staff member" : "Location");
      return upsertFeed(manager, actor.organizationId, checked, hashSecret(secret), this.deps.clock.now());
    });
    return { id, url: `${this.deps.config.publicUrl}${FEED_PATH}/${secret}.ics` };
  }

  /** Revokes the subject's feed: its URL answers 404 from now on. */
  async revoke(actor: Actor, subject: FeedSubject): Promise<boolean> {
    const checked = this.checked(actor, subject);
    if (!(await this.deps.unitOfWork.run((manager) => deleteFeed(manager, actor.organizationId, checked)))) throw notFound("Calendar feed");
    return true;
  }

  /** The feed whose secret this is; undefined for a secret of no feed (never made, replaced or revoked). */
  async feedOf(secret: string): Promise<FeedRow | undefined> {
    if (!secret.startsWith(`${SECRET_PREFIX}_`) || secret.length > 100) return undefined;
    return selectFeedBySecret(this.deps.db, hashSecret(secret));
  }

  /** The feed's calendar as it is now. */
  async render(feed: FeedRow): Promise<RenderedFeed> {
    const window = feedWindow(this.deps.clock.now());
    const [entries, departures, timeOff] = await Promise.all([
      selectEntries(this.deps.db, feed, window),
      selectDepartures(this.deps.db, feed, window),
      selectTimeOff(this.deps.db, feed, window),
    ]);
    const text = feedCalendar(feed, { entries, departures, timeOff }, window);
    return { text, etag: feedTag(text) };
  }
}
