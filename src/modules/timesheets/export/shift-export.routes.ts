import type { Response } from "express";
import { daysBetween, parseDateRange } from "../../../common/time";
import { RawRestRoute } from "../../../rest/raw-routes";
import { CSV_HEADER, CsvRecords } from "./shift-export.csv";
import { ExportSink } from "./shift-export.service";

/** Writes a chunk, waiting while the client's socket is full; false once the client is gone. */
async function send(res: Response, chunk: string | Buffer): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.on("drain", done);
      res.on("close", done);
    });
  }
  return !res.destroyed;
}

interface Format {
  type: string;
  open: string;
  /** The rows' text (or its UTF-8 bytes), a batch at a time. */
  records(): ExportSink<string | Buffer>;
  close: string;
}

const FORMATS: Record<"csv" | "json", Format> = {
  csv: {
    type: "text/csv; charset=utf-8",
    open: CSV_HEADER,
    records: () => new CsvRecords(),
    close: "",
  },
  json: {
    type: "application/json; charset=utf-8",
    open: "[",
    records: () => {
      let text = "";
      let continuing = false;
      return {
        add: (row) => {
          text += (continuing ? "," : "") + JSON.stringify(row);
          continuing = true;
        },
        take: () => {
          const batch = text;
          text = "";
          return batch || undefined;
        },
      };
    },
    close: "]",
  },
};

/** Rate-limit points per day of an export's range: what a page of a list spends. */
export const EXPORT_POINTS_PER_DAY = 1000;

/** An export's cost: EXPORT_POINTS_PER_DAY for each day of its range; 1 for a range it will refuse anyway. */
function exportCost(startDate: unknown, endDate: unknown): number {
  try {
    const range = parseDateRange(String(startDate), String(endDate));
    return (daysBetween(range.start, range.end) + 1) * EXPORT_POINTS_PER_DAY;
  } catch {
    return 1;
  }
}

export const shiftExportRoutes: RawRestRoute[] = [
  {
    method: "GET",
    path: "/api/timesheets/export",
    operationId: "exportTimesheets",
    summary: "Export closed shifts for payroll as CSV (default) or JSON, streamed as they are read",
    details:
      "The CSV answer (text/csv) is text, not JSON: a generated client must be told to read it as text " +
      '(openapi-fetch: `parseAs: "text"`), or it fails parsing it as JSON. `format=json` answers the same rows as a JSON array.',
    tag: "Timesheets",
    produces: { [FORMATS.csv.type]: "text", [FORMATS.json.type]: { arrayOf: "ShiftExportRow" } },
    query: {
      startDate: { description: "First local day, YYYY-MM-DD (unless payPeriod is given)" },
      endDate: { description: "Last local day (inclusive), YYYY-MM-DD (unless payPeriod is given)" },
      payPeriod: { description: "The first day of a pay period, instead of startDate and endDate (docs/pay-periods.md)" },
      format: { enum: ["csv", "json"], description: "csv (default) or json" },
      locationId: { description: "Only this location's shifts" },
      employeeId: { description: "Only this staff member's shifts" },
    },
    // Proportional to the range: each day of it spends what a page of a list does.
    // A pay period is at most a month.
    cost: (query) => (query.payPeriod ? 31 * EXPORT_POINTS_PER_DAY : exportCost(query.startDate, query.endDate)),
    async handle(ctx, query, res) {
      const format = FORMATS[query.format === "json" ? "json" : "csv"];
      const range = await ctx.services.payPeriods.rangeOf(ctx.actor, query);
      // Checks permission and parameters before anything is sent.
      const batches = ctx.services.shiftExport.batches(ctx.actor, { ...range, locationId: query.locationId, employeeId: query.employeeId }, format.records);
      res.status(200).setHeader("Content-Type", format.type);
      res.setHeader("Content-Disposition", `attachment; filename="timesheets-${range.startDate}-${range.endDate}.${query.format ?? "csv"}"`);
      res.setHeader("Cache-Control", "no-store");
      if (!(await send(res, format.open))) return;
      for await (const text of batches) if (!(await send(res, text))) return;
      res.end(format.close);
    },
  },
];
