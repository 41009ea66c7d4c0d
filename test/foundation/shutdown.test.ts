import http from "node:http";
import { ServiceProcess } from "../support/service-process";
import { PLATFORM_KEY } from "../support/harness";

/**
 * A POST whose headers are sent now and whose body is sent when `send` is called. It asks the
 * server to confirm it has read the headers (`Expect: 100-continue`): `read` resolves on that
 * answer, the child's own word that the request is in flight.
 */
function preparedPost(url: string, path: string, body: object, token: string) {
  const req = http.request(`${url}${path}`, {
    method: "POST",
    agent: false,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, Expect: "100-continue" },
  });
  const answer = new Promise<number | string>((resolve) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", (e) => resolve(String((e as NodeJS.ErrnoException).code)));
  });
  const read = new Promise<void>((resolve) => req.on("continue", () => resolve()));
  req.flushHeaders();
  return { read, answer, send: () => req.end(JSON.stringify(body)) };
}

describe("graceful shutdown", () => {
  it("answers every request already sent when SIGTERM arrives, refuses new ones and exits 0", async () => {
    const service = await ServiceProcess.start(undefined);
    const created = await fetch(`${service.url}/api/organizations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${PLATFORM_KEY}` },
      body: JSON.stringify({ name: "Shutdown Co" }),
    }).then((r) => r.json());
    const token = (
      await fetch(`${service.url}/api/auth/token-exchange`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ apiKey: created.apiKey }),
      }).then((r) => r.json())
    ).accessToken;
    const path = `/api/organizations/${created.organization.id}/locations`;

    const requests = Array.from({ length: 40 }, (_, i) => preparedPost(service.url, path, { name: `L${i}`, timezone: "UTC" }, token));
    await Promise.all(requests.map((r) => r.read));
    const exited = service.stop();
    for (const r of requests) r.send();

    const answers = await Promise.all(requests.map((r) => r.answer));
    expect(answers).toEqual(requests.map(() => 201));
    expect(await exited).toBe(0);
    expect(await preparedPostNow(service.url, path, token)).toBe("ECONNREFUSED");
  });
});

function preparedPostNow(url: string, path: string, token: string) {
  const late = preparedPost(url, path, { name: "late", timezone: "UTC" }, token);
  late.send();
  return late.answer;
}
