/** The front door of the time clock: the only file other modules import. */
export { timeClockModule } from "./timeclock.module";
