#!/usr/bin/env node
/**
 * Mutation check: proves the tests named in mutation-rules.json fail when the rule they guard is
 * broken. For each rule, the source file is changed in memory (its `find` text, which must occur
 * exactly once, becomes `replace`), compiled on its own into a copy of dist/, and the named test
 * files run on that copy. A rule whose tests stay green fails the check. The sources are never
 * written, so an interrupted run leaves nothing behind. A rule's `env` is set for its tests (for
 * example to sweep only the operations it concerns). Run after `npm run build`.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const root = path.join(__dirname, "..");
const MUTANT = "dist-mutant";
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

/** dist/ with the rule's file compiled from its broken source. */
function buildMutant(rule) {
  const file = path.join(root, rule.file);
  const source = fs.readFileSync(file, "utf8");
  const at = source.indexOf(rule.find);
  if (at < 0 || source.indexOf(rule.find, at + 1) >= 0) throw new Error(`${rule.file}: the text to break must occur exactly once: ${rule.find}`);
  const broken = source.slice(0, at) + rule.replace + source.slice(at + rule.find.length);
  const out = path.join(root, MUTANT);
  fs.rmSync(out, { recursive: true, force: true });
  fs.cpSync(path.join(root, "dist"), out, { recursive: true });
  const { outputText, diagnostics } = ts.transpileModule(broken, { compilerOptions, fileName: file, reportDiagnostics: true });
  if (diagnostics?.length) throw new Error(`${rule.file}: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ")}`);
  fs.writeFileSync(path.join(out, rule.file.replace(/\.ts$/, ".js")), outputText);
}

function testsPass(rule) {
  const files = rule.tests.map((t) => path.join(MUTANT, t.replace(/\.ts$/, ".js")));
  const run = spawnSync(
    process.execPath,
    ["--experimental-vm-modules", "--no-warnings=ExperimentalWarning", "node_modules/jest/bin/jest.js", "--silent", ...files],
    {
      cwd: root,
      env: { ...process.env, ...rule.env, JEST_DIST: MUTANT },
      encoding: "utf8",
    },
  );
  const summary = /Tests:.*$/m.exec(`${run.stdout}${run.stderr}`)?.[0] ?? "no summary";
  // Killed means a test ran and failed; a suite that could not run proves nothing either way.
  if (run.status !== 0 && !/\d+ failed/.test(summary)) {
    throw new Error(`${rule.rule}: its tests did not run (${summary})\n${run.stdout}${run.stderr}`.slice(0, 4000));
  }
  return { passed: run.status === 0, summary };
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

let survived = 0;
try {
  for (const rule of rules.filter((r) => !only || r.rule.includes(only))) {
    const started = Date.now();
    buildMutant(rule);
    const { passed, summary } = testsPass(rule);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`${passed ? "SURVIVED" : "killed  "} ${rule.rule} (${rule.tests.join(", ")}: ${summary}; ${seconds} s)`);
    if (passed) survived++;
  }
} finally {
  fs.rmSync(path.join(root, MUTANT), { recursive: true, force: true });
}
if (survived) {
  console.error(`${survived} broken rule(s) left their tests green`);
  process.exit(1);
}
