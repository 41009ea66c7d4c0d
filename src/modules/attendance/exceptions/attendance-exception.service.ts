import { Actor, ownRecordsOnly, requireSelfOr } from "../../../auth/actor";
import { requireUuid, isUuid } from "../../../common/ids";
import { Page, timeOrderedPage } from "../../../common/pagination";
import { ScheduledJob, ServiceDeps } from "../../../common/services";
import { parseDateRange } from "../../../common/time";
import { conflict, invalidField, notFound } from "../../../errors/app-error";
import { AttendanceException, AttendanceExceptionArgs, AttendanceExceptionStatus, ResolveAttendanceExceptionInput } from "./attendance-exception.graphql";
import { insertMissedClockOuts, insertNoShows, resolveException, selectException, selectExceptions } from "./attendance-exception.store";

/** How often every process looks for what did not happen; running in several at once doubles nothing. */
const DETECTION_INTERVAL_MS = 60_000;

/** Attendance exceptions: workers read their own, managers all and close them. */
export class AttendanceExceptionService {
  /** The detection of no-shows and missed clock-outs, run in every service process. */
  readonly job: ScheduledJob = { name: "attendance-detection", intervalMs: DETECTION_INTERVAL_MS, run: () => this.detect() };

  constructor(private readonly deps: ServiceDeps) {}

  async list(actor: Actor, args: AttendanceExceptionArgs): Promise<Page<AttendanceException>> {
    const own = ownRecordsOnly(actor, "attendance:read", "attendance:self");
    const range = parseDateRange(args.startDate, args.endDate);
    const id = (field: "staffId" | "locationId") => {
      const value = args[field];
      if (value == null) return undefined;
      if (!isUuid(value)) throw invalidField(field, `${field} must be an id`);
      return value.toLowerCase();
    };
    const staffId = id("staffId");
    if (own && staffId && staffId !== own) requireSelfOr(actor, "attendance:read", "attendance:self", staffId);
    return timeOrderedPage(
      args,
      (count, after) =>
        selectExceptions(
          this.deps.db.manager,
          actor.organizationId,
          {
            startDate: range.start,
            endDate: range.end,
            kind: args.kind ?? undefined,
            status: args.status ?? undefined,
            staffId: own ?? staffId,
            locationId: id("locationId"),
            after,
          },
          count,
        ),
      (r) => [r.detectedAt, r.id],
    );
  }

  async get(actor: Actor, id: string): Promise<AttendanceException> {
    const found = await selectException(this.deps.db.manager, actor.organizationId, requireUuid(id, "Attendance exception"));
    const own = ownRecordsOnly(actor, "attendance:read", "attendance:self");
    // Another worker's exception does not exist for a worker.
    if (!found || (own && found.staffId !== own)) throw notFound("Attendance exception");
    return found;
  }

  /** EXCUSED or RESOLVED with a note; an exception already closed is not closed again (409). */
  resolve(actor: Actor, id: string, input: ResolveAttendanceExceptionInput): Promise<AttendanceException> {
    if (input.status === AttendanceExceptionStatus.OPEN) throw invalidField("status", "status must be EXCUSED or RESOLVED");
    const note = input.note.trim();
    if (!note) throw invalidField("note", "A note is required");
    return this.deps.unitOfWork.run(async (manager) => {
      const found = await selectException(manager, actor.organizationId, requireUuid(id, "Attendance exception"), true);
      if (!found) throw notFound("Attendance exception");
      if (found.status !== AttendanceExceptionStatus.OPEN) throw conflict(`The exception is already ${found.status}`);
      await resolveException(manager, actor.organizationId, found.id, { status: input.status, note, resolvedBy: actor.staffId }, this.deps.clock.now());
      return (await selectException(manager, actor.organizationId, found.id))!;
    });
  }

  /** Finds no-shows and missed clock-outs of every organization with a policy, as of now. */
  async detect(): Promise<{ noShows: number; missedClockOuts: number }> {
    const now = this.deps.clock.now();
    const noShows = await this.deps.unitOfWork.run((manager) => insertNoShows(manager, now));
    const missedClockOuts = await this.deps.unitOfWork.run((manager) => insertMissedClockOuts(manager, now));
    return { noShows, missedClockOuts };
  }
}
