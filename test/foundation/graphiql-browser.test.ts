/// <reference lib="dom" />
import { existsSync } from "node:fs";
import { AddressInfo } from "node:net";
import { chromium } from "playwright-core";
import { TestService } from "../support/harness";

const CHROMIUM = "/usr/bin/chromium";
// CI installs Chromium and requires this test; a developer machine without it skips it.
const run = existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER ? it : it.skip;

describe("GraphiQL in a real browser, offline", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
    await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => t.stop());

  run("loads from the service alone, runs a query with the token, and shows the answer", async () => {
    const org = await t.organization("Browser Bistro");
    const base = `http://127.0.0.1:${(t.runtime.server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      // Every request that leaves the service is blocked and remembered: the page must not need one.
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(base)) return route.continue();
        outside.push(url);
        return route.abort();
      });
      const served: string[] = [];
      page.on("request", (r) => served.push(r.url()));
      // The token travels in the fragment, which no request carries, and leaves the address bar.
      await page.goto(`${base}/graphql#token=${org.token}`);
      await page.waitForSelector(".graphiql-container", { timeout: 20000 });
      await page.evaluate(() => {
        const editor = (document.querySelector(".graphiql-query-editor .CodeMirror") as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror;
        editor.setValue("{ organization { name } }");
      });
      await page.click(".graphiql-execute-button");
      await page.waitForFunction(() => document.querySelector(".graphiql-response")?.textContent?.includes("Browser Bistro"), undefined, { timeout: 20000 });
      expect(await page.textContent(".graphiql-response")).toContain("Browser Bistro");
      expect(outside).toEqual([]);
      expect(served.filter((url) => url.includes(org.token))).toEqual([]);
      expect(page.url()).toBe(`${base}/graphql`);
    } finally {
      await browser.close();
    }
  });
});
