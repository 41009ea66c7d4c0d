/**
 * Tests run on the compiled output (`npm test` builds first), so decorators carry tsc's metadata.
 * JEST_DIST names another output folder, for building and testing beside a running build.
 */
const fs = require("node:fs");
const path = require("node:path");

const dist = process.env.JEST_DIST || "dist";

/** A test file reaches a database when it requires the test harness, the service's runtime, its database layer or a driver. */
const REACHES_DATABASE =
  /require\("\.\.\/support\/(harness|service-process|workplace|records|test-database)"\)|src\/app\/runtime|src\/database\/data-source|require\("(pg|typeorm|@electric-sql\/pglite)"\)/;

/** The compiled test files whose text `matches`, as patterns that name them. */
function testFiles(matches) {
  const root = path.join(__dirname, dist, "test");
  return fs
    .readdirSync(root, { recursive: true })
    .filter((file) => file.endsWith(".test.js") && matches(fs.readFileSync(path.join(root, file), "utf8")))
    .map((file) => `/${dist}/test/${file.split(path.sep).join("/")}$`);
}

/**
 * Files left out of a run, so that CI runs each of them where it tells something; `npm test` runs
 * every file.
 * - SKIP_SWEEPS (CI's pass on PGlite): the sweeps through every operation, the files with a
 *   SWEEP_TIMEOUT. Thousands of calls test the API's layers, the same on any database; they run on
 *   PostgreSQL.
 * - SKIP_DATABASE_FREE_TESTS (CI's pass on PostgreSQL): the files that reach no database or say
 *   they do not depend on it (`@database-independent`). They ran on PGlite.
 * - SKIP_SERVICE_PROCESS_TESTS (CI's pass on PostgreSQL): the files that run service processes.
 *   Those that start them on a server database run on PostgreSQL through PgBouncer, the harder of
 *   the two ways to reach it; the others start embedded ones and ran on PGlite.
 */
const skipped = [
  // Fault tests stop the PostgreSQL server: they run alone, through `npm run test:faults`.
  ...(process.env.FAULTS ? [] : ["/faults/"]),
  ...(process.env.SKIP_SWEEPS ? testFiles((text) => text.includes("SWEEP_TIMEOUT")) : []),
  ...(process.env.SKIP_DATABASE_FREE_TESTS ? testFiles((text) => !REACHES_DATABASE.test(text) || text.includes("@database-independent")) : []),
  ...(process.env.SKIP_SERVICE_PROCESS_TESTS ? testFiles((text) => text.includes("ServiceProcess")) : []),
];

module.exports = {
  testEnvironment: "node",
  roots: [`<rootDir>/${dist}/test`],
  testMatch: ["**/*.test.js"],
  // The tests run tsc's output as it is: no transform (babel-jest by default) of every file each test file loads.
  transform: {},
  testPathIgnorePatterns: skipped,
  // A busy shared machine takes over a minute to start a service; the limit only ends a hang.
  testTimeout: 300000,
  maxWorkers: 2,
  // Each file leaves some tens of megabytes in its worker that are never freed, up to a heap of
  // gigabytes that every later file pays to collect. A worker that holds more after a file is
  // replaced by a fresh one.
  workerIdleMemoryLimit: "600MB",
  setupFiles: [`<rootDir>/${dist}/test/support/setup.js`],
  // Every REST answer is checked against the OpenAPI document; the run prints how many were. A
  // statement sent on a pg connection still running another fails its test.
  setupFilesAfterEnv: [`<rootDir>/${dist}/test/support/contract-setup.js`, `<rootDir>/${dist}/test/support/busy-connections-setup.js`],
  globalSetup: `<rootDir>/${dist}/test/support/contract-global-setup.js`,
  globalTeardown: `<rootDir>/${dist}/test/support/contract-global-teardown.js`,
};
