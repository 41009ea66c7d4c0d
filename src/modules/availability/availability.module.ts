import type { DomainModule } from "../module";
import { AvailabilityRuleResolver } from "./rules/availability-rule.resolver";
import { availabilityRuleRoutes } from "./rules/availability-rule.routes";
import { AvailabilityRuleService } from "./rules/availability-rule.service";

declare module "../../common/services" {
  interface Services {
    availability: AvailabilityRuleService;
  }
}

/** Who can work when: staff members' availability rules and preferences, and their approval. */
export const availabilityModule: DomainModule = {
  services: (deps) => ({ availability: new AvailabilityRuleService(deps) }),
  resolvers: [AvailabilityRuleResolver],
  restRoutes: availabilityRuleRoutes,
};
