import type { DomainModule } from "../module";
import { EligibilityResolver } from "./eligibility/eligibility.resolver";
import { eligibilityRoutes } from "./eligibility/eligibility.routes";
import { EligibilityService } from "./eligibility/eligibility.service";
import { AvailabilityRuleResolver } from "./rules/availability-rule.resolver";
import { availabilityRuleRoutes } from "./rules/availability-rule.routes";
import { AvailabilityRuleService } from "./rules/availability-rule.service";

declare module "../../common/services" {
  interface Services {
    availability: AvailabilityRuleService;
    eligibility: EligibilityService;
  }
}

/** Who can work when: staff members' availability rules and preferences, their approval, and who can take a shift. */
export const availabilityModule: DomainModule = {
  services: (deps) => ({ availability: new AvailabilityRuleService(deps), eligibility: new EligibilityService(deps) }),
  resolvers: [AvailabilityRuleResolver, EligibilityResolver],
  restRoutes: [...availabilityRuleRoutes, ...eligibilityRoutes],
};
