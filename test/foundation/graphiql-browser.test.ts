/// <reference lib="dom" />
import { existsSync } from "node:fs";
import { AddressInfo } from "node:net";
import { chromium, Page, WebSocket } from "playwright-core";
import { TestService } from "../support/harness";

const CHROMIUM = "/usr/bin/chromium";
// CI installs Chromium and requires this test; a developer machine without it skips it.
const run = existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER ? it : it.skip;

/** @database-independent: the page and its subscriptions behave the same on any database. */
describe("GraphiQL in a real browser, offline", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
    await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => t.stop());
  const base = () => `http://127.0.0.1:${(t.runtime.server.address() as AddressInfo).port}`;

  /** Chromium on GraphiQL with the token in the fragment; every request leaving the service blocked and remembered. */
  async function openGraphiQL(token: string, use: (page: Page, outside: string[], served: string[]) => Promise<void>): Promise<void> {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(base())) return route.continue();
        outside.push(url);
        return route.abort();
      });
      const served: string[] = [];
      page.on("request", (r) => served.push(r.url()));
      // The token travels in the fragment, which no request carries, and leaves the address bar.
      await page.goto(`${base()}/graphql#token=${token}`);
      await page.waitForSelector(".graphiql-container", { timeout: 20000 });
      await use(page, outside, served);
    } finally {
      await browser.close();
    }
  }

  async function runInEditor(page: Page, operation: string): Promise<void> {
    await page.evaluate((text) => {
      const editor = (document.querySelector(".graphiql-query-editor .CodeMirror") as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror;
      editor.setValue(text);
    }, operation);
    await page.click(".graphiql-execute-button");
  }

  run("loads from the service alone, runs a query with the token, and shows the answer", async () => {
    const org = await t.organization("Browser Bistro");
    await openGraphiQL(org.token, async (page, outside, served) => {
      await runInEditor(page, "{ organization { name } }");
      await page.waitForFunction(() => document.querySelector(".graphiql-response")?.textContent?.includes("Browser Bistro"), undefined, { timeout: 20000 });
      expect(await page.textContent(".graphiql-response")).toContain("Browser Bistro");
      expect(outside).toEqual([]);
      expect(served.filter((url) => url.includes(org.token))).toEqual([]);
      expect(page.url()).toBe(`${base()}/graphql`);
    });
  });

  run("runs a subscription over the WebSocket and shows an event committed meanwhile", async () => {
    const org = await t.organization("Browser Subscriber");
    await openGraphiQL(org.token, async (page, outside) => {
      // GraphiQL reads the editor's document a moment after it changes, and sends what it takes for a
      // query over HTTP (refused: subscriptions run over the WebSocket): run again until it has read it.
      const opened = page.waitForEvent("websocket", { timeout: 60000 });
      let socket: WebSocket | undefined;
      void opened.then(
        (ws) => (socket = ws),
        () => undefined,
      );
      await runInEditor(page, 'subscription { events(types: ["location.created"]) { type data { object } } }');
      for (let round = 0; !socket && round < 30; round++) {
        const refused = await page
          .waitForFunction(() => document.querySelector(".graphiql-response")?.textContent?.includes("not over HTTP"), undefined, { timeout: 1000 })
          .then(
            () => true,
            () => false,
          );
        if (refused && !socket) await page.click(".graphiql-execute-button");
      }
      socket = await opened;
      expect(socket.url()).toBe(`${base().replace("http", "ws")}/graphql`);
      // The subscription may reach the server a moment after the socket opens: each round commits a
      // new location and looks for it on the page; the first that arrives ends the wait.
      let seen = false;
      for (let round = 0; !seen && round < 20; round++) {
        await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: `Seen Live ${round}`, timezone: "UTC" });
        seen = await page
          .waitForFunction(() => document.querySelector(".graphiql-response")?.textContent?.includes("Seen Live"), undefined, { timeout: 1000 })
          .then(
            () => true,
            () => false,
          );
      }
      expect(await page.textContent(".graphiql-response")).toContain("Seen Live");
      expect(outside).toEqual([]);
    });
  });
});
