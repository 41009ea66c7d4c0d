import { setup } from "./contract-count";

export default setup;
