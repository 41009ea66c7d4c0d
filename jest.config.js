/**
 * Tests run on the compiled output (`npm test` builds first), so decorators carry tsc's metadata.
 * JEST_DIST names another output folder, for building and testing beside a running build.
 */
const dist = process.env.JEST_DIST || "dist";

module.exports = {
  testEnvironment: "node",
  roots: [`<rootDir>/${dist}/test`],
  testMatch: ["**/*.test.js"],
  // The tests run tsc's output as it is: no transform (babel-jest by default) of every file each test file loads.
  transform: {},
  // Fault tests stop the PostgreSQL server: they run alone, through `npm run test:faults`.
  testPathIgnorePatterns: process.env.FAULTS ? [] : ["/faults/"],
  // A busy shared machine takes over a minute to start a service; the limit only ends a hang.
  testTimeout: 300000,
  maxWorkers: 2,
  // Each file leaves some tens of megabytes in its worker that are never freed; past a few hundred
  // files' worth, collecting a heap of gigabytes slowed every later file. A worker that holds more
  // after a file is replaced by a fresh one.
  workerIdleMemoryLimit: "600MB",
  setupFiles: [`<rootDir>/${dist}/test/support/setup.js`],
  // Every REST answer is checked against the OpenAPI document; the run prints how many were. A
  // statement sent on a pg connection still running another fails its test.
  setupFilesAfterEnv: [`<rootDir>/${dist}/test/support/contract-setup.js`, `<rootDir>/${dist}/test/support/busy-connections-setup.js`],
  globalSetup: `<rootDir>/${dist}/test/support/contract-global-setup.js`,
  globalTeardown: `<rootDir>/${dist}/test/support/contract-global-teardown.js`,
};
