/** The front door of locations. */
export { locationsModule } from "./locations.module";
export { Location } from "./location.entity";
export type { LocationService } from "./location.service";
