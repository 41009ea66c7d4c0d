/** The front door of the audit trail: the only file other modules import. */
export { auditModule } from "./audit.module";
