/** The front door of shift templates: what other modules use of them. */
export { shiftTemplatesModule } from "./shift-templates.module";
export { ShiftTemplate, TemplateBreak } from "./shift-template.entity";
export type { ShiftTemplateService } from "./shift-template.service";
export { locationTemplates, templateAt } from "./shift-template.service";
export { breakStart, templateMinutes, templateTimes, minuteOfDay } from "./shift-template.rules";
