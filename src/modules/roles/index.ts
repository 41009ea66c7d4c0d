/** The front door of roles and their wages: the only file other modules import. */
export { Role } from "./role.entity";
export { MAX_HOURLY_WAGE } from "./role.inputs";
export { roleLoader } from "./role.loaders";
export { rolesModule } from "./roles.module";
export { roleWages } from "./role.service";
