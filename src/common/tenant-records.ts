import { DataSource, DeepPartial, EntityManager, EntityTarget, FindOptionsWhere, Repository, SelectQueryBuilder } from "typeorm";
import { Actor } from "../auth/actor";
import { invalidField, notFound, unknownReference } from "../errors/app-error";
import { byKeys } from "../loaders/loaders";
import { isUuid, requireUuid } from "./ids";
import { Page, PageArgs, paginate } from "./pagination";
import { TenantRecord } from "./entity-columns";
import type { ServiceDeps } from "./services";
import { findByIds, findOneBy } from "./entity-reads";

/**
 * Reads of one kind of tenant record, always inside the caller's organization: an id of another
 * organization is "not found", exactly like an id that does not exist. Writes run in a unit of work of their own.
 */
export class TenantRecords<T extends TenantRecord> {
  private readonly db: DataSource;

  constructor(
    private readonly deps: Pick<ServiceDeps, "db" | "unitOfWork">,
    private readonly entity: EntityTarget<T>,
    /** How the record is named in messages ("Location"). */
    readonly label: string,
  ) {
    this.db = deps.db;
  }

  get repo(): Repository<T> {
    return this.db.getRepository(this.entity);
  }

  /** One record; inside a transaction pass its manager (and `lock` to hold the row until commit). */
  async get(actor: Actor, id: string, options: { manager?: EntityManager; lock?: boolean } = {}): Promise<T> {
    const where = { id: requireUuid(id, this.label), organizationId: actor.organizationId } as Partial<Record<keyof T & string, string>>;
    const record = await findOneBy(options.manager ?? this.db, this.entity, where, { lock: options.lock ? "update" : undefined });
    if (!record) throw notFound(this.label);
    return record;
  }

  /** Records by id, in the order asked (null where unknown); for data loaders. */
  async byIds(organizationId: string, ids: readonly string[]): Promise<(T | null)[]> {
    return byKeys(ids, await findByIds(this.db, this.entity, organizationId, ids), (r) => r.id);
  }

  /** A page of the organization's records sorted by `sort`; `filter` narrows the query; `source` is where it runs (a replica for a read that may lag). */
  list(
    actor: Actor,
    page: PageArgs,
    sort: { property: keyof T & string; column: string },
    filter?: (q: SelectQueryBuilder<T>) => void,
    source: DataSource = this.db,
  ): Promise<Page<T>> {
    const query = source.getRepository(this.entity).createQueryBuilder("r").where("r.organization_id = :org", { org: actor.organizationId });
    filter?.(query);
    return paginate(query, page, sort);
  }

  /** Inserts or updates one record (a new one comes from `repo.create`). */
  save(record: DeepPartial<T>): Promise<T> {
    return this.deps.unitOfWork.run((manager) => manager.getRepository(this.entity).save(record));
  }

  async delete(actor: Actor, id: string): Promise<boolean> {
    const record = await this.get(actor, id);
    await this.deps.unitOfWork.run((manager) =>
      manager.getRepository(this.entity).delete({ id: record.id, organizationId: actor.organizationId } as FindOptionsWhere<T>),
    );
    return true;
  }
}

/**
 * The one check that ids a body refers to name records of the organization in `table` (narrowed by
 * `where`, such as "deleted_at IS NULL"): a malformed id is a 400 on `field`; a well-formed one that
 * names no such record, another organization's included, a 404 naming `field`, like an unknown id
 * in the path. Answers the ids as stored (lower case), in the order asked.
 */
export async function requireInOrganization(
  manager: EntityManager,
  table: string,
  organizationId: string,
  ids: string[],
  field: string,
  options: { where?: string; message?: (unknown: string[]) => string } = {},
): Promise<string[]> {
  if (!ids.length) return [];
  const message = (unknown: string[]) => options.message?.(unknown) ?? `Unknown id(s) in ${field}: ${unknown.join(", ")}`;
  const bad = ids.filter((id) => !isUuid(id));
  if (bad.length) throw invalidField(field, message(bad));
  const rows: { id: string }[] = await manager.query(
    `SELECT id FROM ${table} WHERE organization_id = $1 AND id = ANY ($2::uuid[])${options.where ? ` AND ${options.where}` : ""}`,
    [organizationId, ids],
  );
  const found = new Set(rows.map((r) => r.id));
  const unknown = ids.filter((id) => !found.has(id.toLowerCase()));
  if (unknown.length) throw unknownReference(field, message(unknown));
  return ids.map((id) => id.toLowerCase());
}
