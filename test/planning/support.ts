import { TestService } from "../support/harness";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

/** A location to generate in: templates by name, coverage, workers, and a generation run to its end by hand. */
export interface GenerationPlace extends ScheduleWorkplace {
  template(name: string, startTime: string, endTime: string, extra?: object): Promise<string>;
  cover(
    startDate: string,
    endDate: string,
    requirements: { date: string; templateId: string; count: number; underWeight?: number; overWeight?: number }[],
  ): Promise<void>;
  /** POSTs the generation (202), runs it in this process, and answers the generation as GET answers it. */
  generate(body: object): Promise<Generation>;
  drafts(
    startDate: string,
    endDate: string,
  ): Promise<
    {
      id: string;
      workerId: string;
      templateId: string;
      startTime: string;
      generationId: string;
      breaks: { typeId: string; paid: boolean; startTime: string | null }[];
    }[]
  >;
}

export interface Generation {
  id: string;
  status: string;
  error: string | null;
  result: {
    objective: number;
    coverUnder: number;
    coverOver: number;
    preferenceOn: number;
    preferenceOff: number;
    cost: number;
    premiums: number;
    hardViolations: { workerId: string; rule: string; date: string | null; message: string }[];
    coverage: { date: string; templateId: string; required: number; assigned: number }[];
    unfilled: { date: string; templateId: string; missing: number; reasons: { code: string; count: number }[] }[];
    people: { workerId: string; minutes: number; shifts: number; weekends: number }[];
    draftIds: string[];
  } | null;
}

export async function generationPlace(t: TestService, name = "Generated diner"): Promise<GenerationPlace> {
  const w = await scheduleWorkplace(t, name);
  const api = () => t.as(w.manager);
  return {
    ...w,
    async template(templateName, startTime, endTime, extra = {}) {
      const res = await api().post(`${w.base}/shift-templates`, { name: templateName, roleId: w.roleId, startTime, endTime, ...extra });
      if (res.status !== 201) throw new Error(`template: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id;
    },
    async cover(startDate, endDate, requirements) {
      const res = await api().put(`${w.base}/coverage`, { startDate, endDate, requirements });
      if (res.status !== 200) throw new Error(`coverage: ${res.status} ${JSON.stringify(res.body)}`);
    },
    async generate(body) {
      const queued = await api().post(`${w.base}/schedules/generate`, { timeLimitSeconds: 1, ...body });
      if (queued.status !== 202) throw new Error(`generate: ${queued.status} ${JSON.stringify(queued.body)}`);
      expect(queued.body.status).toBe("QUEUED");
      expect(await t.runtime.services.scheduleGenerations.runNext()).toBe(queued.body.id);
      return (await api().get(`/api/organizations/${w.org.id}/schedule-generations/${queued.body.id}`)).body;
    },
    async drafts(startDate, endDate) {
      return (await api().get(`${w.base}/schedules/drafts?startDate=${startDate}&endDate=${endDate}&limit=500`)).body;
    },
  };
}

/** The reasons of the first unfilled need, as code → count. */
export function reasonsOf(generation: Generation): Record<string, number> {
  return Object.fromEntries((generation.result?.unfilled[0]?.reasons ?? []).map((r) => [r.code, r.count]));
}
