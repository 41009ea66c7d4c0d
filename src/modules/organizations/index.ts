/** The front door of organizations and the platform's secrets: the only file other modules import. */
export { Organization } from "./organization.entity";
export { organizationsModule } from "./organizations.module";
export { PlatformSecrets } from "./platform-secrets";
