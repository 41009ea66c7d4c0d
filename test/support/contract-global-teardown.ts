import { teardown } from "./contract-count";

export default teardown;
