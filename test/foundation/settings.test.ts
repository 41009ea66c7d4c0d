import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { sourceFiles } from "../support/source-files";
import { ServiceProcess } from "../support/service-process";
import { ROOT } from "../support/project-root";

/** The environment variables the service's sources read (`env.NAME`, `env["NAME"]`). */
function settingsRead(): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(ROOT, "src"))) {
    for (const match of readFileSync(file, "utf8").matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[["']([A-Z][A-Z0-9_]*)["']\])/g)) names.add(match[1] ?? match[2]);
  }
  return [...names].sort();
}

/** The variables named in the first column of the README's settings table. */
function settingsListed(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const table = readme.split("\n## Settings\n")[1].split("\n## ")[0];
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]).sort();
}

describe("settings", () => {
  it("the README's settings table lists every environment variable the service reads, and no other", () => {
    const read = settingsRead();
    expect(read).toContain("KEEP_ALIVE_TIMEOUT_MS");
    expect(settingsListed()).toEqual(read);
  });

  it("KEEP_ALIVE_TIMEOUT_MS reaches the service's sockets", async () => {
    const service = await ServiceProcess.start(undefined, { KEEP_ALIVE_TIMEOUT_MS: "2000" });
    try {
      const agent = new http.Agent({ keepAlive: true });
      const keepAlive = await new Promise<string>((resolve, reject) => {
        http
          .get(`${service.url}/healthz`, { agent }, (res) => {
            res.resume();
            res.on("end", () => resolve(String(res.headers["keep-alive"])));
          })
          .on("error", reject);
      });
      agent.destroy();
      expect(keepAlive).toBe("timeout=2");
    } finally {
      await service.stop();
    }
  });
});
