#!/usr/bin/env node
/**
 * Mutation check: proves the tests named in mutation-rules.json fail when the rule they guard is
 * broken. For each rule, the source file is changed in memory (its `find` text, which must occur
 * exactly once, becomes `replace`), compiled on its own into a copy of dist/, and the named test
 * files run on that copy. A rule whose tests stay green fails the check. The sources are never
 * written, so an interrupted run leaves nothing behind. A rule's `env` is set for its tests (for
 * example to sweep only the operations it concerns), and its `only`, a pattern of test names, runs
 * just the tests that guard it where the rest of a file is slow and unrelated. Two rules run at
 * once, each on its own copy of dist/ (the suites are single-threaded; the machine has two cores or
 * more). Run after `npm run build`.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const root = path.join(__dirname, "..");
/** Rules run at once, each on a copy of dist/ of its own (`dist-mutant-<n>`). */
const AT_ONCE = 2;
const rules = JSON.parse(fs.readFileSync(path.join(__dirname, "mutation-rules.json"), "utf8"));
const only = process.argv[2];

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(root, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  },
);
const compilerOptions = { ...config.options, sourceMap: false, inlineSourceMap: false, incremental: false };

/** A copy of dist/ in `out` with the rule's file compiled from its broken source. */
function buildMutant(rule, out) {
  const file = path.join(root, rule.file);
  const source = fs.readFileSync(file, "utf8");
  const at = source.indexOf(rule.find);
  if (at < 0 || source.indexOf(rule.find, at + 1) >= 0) throw new Error(`${rule.file}: the text to break must occur exactly once: ${rule.find}`);
  const broken = source.slice(0, at) + rule.replace + source.slice(at + rule.find.length);
  fs.rmSync(out, { recursive: true, force: true });
  fs.cpSync(path.join(root, "dist"), out, { recursive: true });
  const { outputText, diagnostics } = ts.transpileModule(broken, { compilerOptions, fileName: file, reportDiagnostics: true });
  if (diagnostics?.length) throw new Error(`${rule.file}: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ")}`);
  fs.writeFileSync(path.join(out, rule.file.replace(/\.ts$/, ".js")), outputText);
}

/** Runs the rule's tests on the copy in `dist` (a folder name under the root); resolves whether they passed. */
function testsPass(rule, dist) {
  const files = rule.tests.map((t) => path.join(dist, t.replace(/\.ts$/, ".js")));
  const args = ["--experimental-vm-modules", "--no-warnings=ExperimentalWarning", "node_modules/jest/bin/jest.js", "--silent", ...files];
  if (rule.only) args.push("--testNamePattern", rule.only);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...rule.env, JEST_DIST: dist } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      // The tests that failed, as jest heads their reports ("● describe › test").
      const failed = [...new Set([...output.matchAll(/^\s*● (.+ › .+)$/gm)].map((m) => m[1].trim()))];
      const summary = `${/Tests:.*$/m.exec(output)?.[0] ?? "no summary"}${failed.length ? `; failed: ${failed.join("; ")}` : ""}`;
      // Killed means a test ran and failed; a suite that could not run proves nothing either way.
      if (status !== 0 && !/\d+ failed/.test(summary)) {
        reject(new Error(`${rule.rule}: its tests did not run (${summary})\n${output}`.slice(0, 4000)));
      } else {
        resolve({ passed: status === 0, summary });
      }
    });
  });
}

// Every rule's text must still be in its file before anything runs: a renamed line fails at once.
for (const rule of rules) {
  const source = fs.readFileSync(path.join(root, rule.file), "utf8");
  const at = source.indexOf(rule.find);
  if (at < 0 || source.indexOf(rule.find, at + 1) >= 0) {
    console.error(`${rule.rule}: ${rule.file} must hold its text exactly once: ${rule.find}`);
    process.exit(1);
  }
}

/** Breaks each rule in turn on the copy `dist`, taking the next rule from `queue` until none is left. */
async function worker(queue, dist) {
  let survived = 0;
  try {
    for (let rule = queue.shift(); rule; rule = queue.shift()) {
      const started = Date.now();
      buildMutant(rule, path.join(root, dist));
      const { passed, summary } = await testsPass(rule, dist);
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`${passed ? "SURVIVED" : "killed  "} ${rule.rule} (${rule.tests.join(", ")}: ${summary}; ${seconds} s)`);
      if (passed) survived++;
    }
  } finally {
    fs.rmSync(path.join(root, dist), { recursive: true, force: true });
  }
  return survived;
}

async function main() {
  const queue = rules.filter((r) => !only || r.rule.includes(only));
  const survivals = await Promise.all(Array.from({ length: AT_ONCE }, (_, n) => worker(queue, `dist-mutant-${n + 1}`)));
  const survived = survivals.reduce((sum, n) => sum + n, 0);
  if (survived) {
    console.error(`${survived} broken rule(s) left their tests green`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
