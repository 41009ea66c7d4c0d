import type { Services } from "../common/services";
import type { ModuleDeps } from "../modules/module";
import { modules } from "./modules";

export type { Services };

/** Every domain service, built once per process and shared by GraphQL, REST and the CLIs. */
export function createServices(deps: ModuleDeps): Services {
  const services = {} as Services;
  for (const module of modules) Object.assign(services, module.services(deps, services));
  return services;
}
