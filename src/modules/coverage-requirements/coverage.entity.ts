import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";

/** How many people a location needs on a template's shift on one day, and what a missing or extra one costs. */
@Entity("coverage_requirements")
export class CoverageRequirement extends TenantRecord {
  @Column({ name: "location_id", type: "uuid" })
  locationId: string;

  @Column({ name: "template_id", type: "uuid" })
  templateId: string;

  @Column({ name: "day", type: "date" })
  date: string;

  @Column({ name: "required_count", type: "integer" })
  count: number;

  @Column({ name: "under_weight", type: "integer" })
  underWeight: number;

  @Column({ name: "over_weight", type: "integer" })
  overWeight: number;
}
