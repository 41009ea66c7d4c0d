/** The front door of access roles and API keys: the only file other modules import. */
export { AccessRole } from "./access-role.entity";
export { accessRoleLoader } from "./access.loaders";
export { accessModule } from "./access.module";
export { AccessService } from "./access.service";
