import { expectNoBusyConnections, watchBusyConnections } from "./busy-connections";

// A statement sent on a busy pg connection fails the test that sent it (pg 9 refuses it outright).
watchBusyConnections();
afterEach(() => expectNoBusyConnections());
