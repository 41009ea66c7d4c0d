/** The front door of locations: the only file other modules import. */
export { Location } from "./location.entity";
export { locationLoader } from "./location.loaders";
export { locationsModule } from "./locations.module";
