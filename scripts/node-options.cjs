// The Node.js options of a service on a PostgreSQL server: those given, with package.json's
// `config.serverNodeOptions` in place of the ones of the same name. Shared by `npm start`
// (start.mjs) and the processes the tests and the bench start, so the two never differ.
const { readFileSync } = require("node:fs");
const path = require("node:path");

const SERVER_OPTIONS = JSON.parse(readFileSync(path.join(__dirname, "../package.json"), "utf8")).config.serverNodeOptions.split(" ");

/** @param {string[]} options @returns {string[]} */
function withServerOptions(options) {
  const names = new Set(SERVER_OPTIONS.map((option) => option.split("=")[0]));
  return [...options.filter((option) => !names.has(option.split("=")[0])), ...SERVER_OPTIONS];
}

module.exports = { withServerOptions };
