import { TokenSigner } from "../../auth/tokens";
import type { DomainModule } from "../module";
import { AccessResolver } from "./access.resolver";
import { accessRoutes } from "./access.routes";
import { AccessService } from "./access.service";

declare module "../../common/services" {
  interface Services {
    access: AccessService;
  }
}

/** Access roles, API keys and the token exchange. */
export const accessModule: DomainModule = {
  services: (deps) => ({ access: new AccessService(deps, new TokenSigner(deps.platform.jwtSecret, deps.config.tokenTtlSeconds)) }),
  resolvers: [AccessResolver],
  restRoutes: accessRoutes,
};
