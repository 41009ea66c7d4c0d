import type { DomainModule } from "../module";
import { ShiftTemplateResolver } from "./shift-template.resolver";
import { shiftTemplateRoutes } from "./shift-template.routes";
import { ShiftTemplateService } from "./shift-template.service";

declare module "../../common/services" {
  interface Services {
    shiftTemplates: ShiftTemplateService;
  }
}

/** Shift templates: a location's recurring shifts, which drafts, coverage and generation are planned in. */
export const shiftTemplatesModule: DomainModule = {
  services: (deps) => ({ shiftTemplates: new ShiftTemplateService(deps) }),
  resolvers: [ShiftTemplateResolver],
  restRoutes: shiftTemplateRoutes,
};
