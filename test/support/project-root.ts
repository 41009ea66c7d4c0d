import path from "node:path";

/** The project's root, from the compiled tests in dist/test. */
export const ROOT = path.join(__dirname, "../../..");
