/** The front door of time-off policies, requests, balances and accruals: the only file other modules import. */
export { timeOffModule } from "./timeoff.module";
export { approvedTimeOff } from "./requests/request.service";
