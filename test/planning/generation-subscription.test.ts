import { TestService } from "../support/harness";
import { Subscriber } from "../support/subscriber";
import { generationPlace, GenerationPlace } from "./support";

const COMPLETED = "subscription ($locationId: ID) { scheduleGenerationCompleted(locationId: $locationId) { type data { object } } }";

describe("the scheduleGenerationCompleted subscription", () => {
  let t: TestService;
  let p: GenerationPlace;
  let url: string;
  beforeAll(async () => {
    t = await TestService.start();
    p = await generationPlace(t, "Subscribed");
    await p.worker();
    await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(t.runtime.server.address() as { port: number }).port}`;
  });
  afterAll(() => t.stop());

  it("tells a manager of each generation's end at the location, and refuses a worker", async () => {
    const day = await p.template("Day", "09:00", "17:00");
    await p.cover("2026-03-23", "2026-03-23", [{ date: "2026-03-23", templateId: day, count: 1 }]);
    const s = await Subscriber.start(url, p.manager, COMPLETED, { locationId: p.locationId });
    try {
      // The server takes the subscription a moment after acknowledging it: generate until one is seen.
      const ids: string[] = [];
      while (!s.received.length && !s.errors.length) ids.push((await p.generate({ startDate: "2026-03-23", endDate: "2026-03-23" })).id);
      expect(s.errors).toEqual([]);
      const event = s.received[0] as { type: string; data: { object: { generationId: string; locationId: string; status: string; draftIds: string[] } } };
      expect(event.type).toBe("schedule.generation.completed");
      expect(event.data.object).toMatchObject({ locationId: p.locationId, status: "SUCCEEDED" });
      expect(ids).toContain(event.data.object.generationId);
    } finally {
      await s.close();
    }
    const worker = await p.worker();
    const refused = await Subscriber.start(url, worker.token, COMPLETED, {});
    try {
      await refused.until((x) => x.errors.length > 0);
      expect(JSON.stringify(refused.errors)).toMatch(/FORBIDDEN|permission|allow/i);
    } finally {
      await refused.close();
    }
  });
});
