import { DataSource } from "typeorm";
import { TimeOffPolicy } from "./policy.entity";

/** The SQL of time-off policies. */

/** The organization's active policies, or every policy with `allStatuses`, by name. */
export function selectPolicies(db: DataSource, organizationId: string, allStatuses: boolean): Promise<TimeOffPolicy[]> {
  const query = db.getRepository(TimeOffPolicy).createQueryBuilder("p").where("p.organization_id = :org", { org: organizationId });
  if (!allStatuses) query.andWhere("p.status = 'Active'");
  return query.orderBy("p.name").addOrderBy("p.id").getMany();
}

/** Policies by id, removed ones included. */
export function selectPoliciesWithRemoved(db: DataSource, organizationId: string, ids: readonly string[]): Promise<TimeOffPolicy[]> {
  return db.getRepository(TimeOffPolicy).createQueryBuilder("p").withDeleted().where("p.organization_id = :org AND p.id = ANY(:ids)", { org: organizationId, ids }).getMany();
}
