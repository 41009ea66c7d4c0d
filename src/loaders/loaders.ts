import { AsyncLocalStorage } from "node:async_hooks";
import DataLoader from "dataloader";

type Batch<K, V> = (keys: readonly K[]) => Promise<(V | Error)[]>;

/**
 * The data loaders of one request. Each is made on first use and lives as long as the request, so
 * loads made in one tick become one query and no cached row outlives the request (or leaks to
 * another organization's request).
 *
 * Some loaders read what every caller of the organization reads alike (a policy, a location: the
 * batch takes the organization, never the caller). A change's rendering before its commit fills
 * such loaders with what the change left; `takeOver` hands them to the request that made the
 * change, so its answer reads none of it again.
 */
export class Loaders {
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>();
  /** The names of the loaders whose rows are the same for every caller of the organization. */
  private readonly organizationWide = new Set<string>();

  /** `organizationId`: the organization every read of these loaders is made in, when it is known. */
  constructor(readonly organizationId: string | null = null) {}

  /** A loader whose batch may depend on the caller. */
  get<K, V>(name: string, batch: Batch<K, V>): DataLoader<K, V> {
    let loader = this.loaders.get(name);
    if (!loader) {
      loader = new DataLoader<K, V>(batch, { maxBatchSize: 5000 }) as DataLoader<unknown, unknown>;
      this.loaders.set(name, loader);
    }
    return loader as DataLoader<K, V>;
  }

  /** A loader whose batch reads for the organization alone, the same for every caller of it. */
  ofOrganization<K, V>(name: string, batch: Batch<K, V>): DataLoader<K, V> {
    this.organizationWide.add(name);
    return this.get(name, batch);
  }

  /**
   * After a change this request committed: forgets every row read before it, and keeps the
   * organization-wide loaders of `committed` (the change's rendering, read in its transaction just
   * before the commit: what the change left) when they read in this request's organization.
   */
  takeOver(committed: Loaders | undefined): void {
    this.loaders.clear();
    this.organizationWide.clear();
    if (!committed || committed.organizationId === null || committed.organizationId !== this.organizationId) return;
    for (const name of committed.organizationWide) {
      this.loaders.set(name, committed.loaders.get(name)!);
      this.organizationWide.add(name);
    }
  }
}

/** The loaders of the request being served, through every await of it: where a change's rendering hands its readings over. */
export const requestLoaders = new AsyncLocalStorage<Loaders>();

/** Orders rows by the keys asked for; a key without a row gets `missing`. */
export function byKeys<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K, missing: V | null = null): (V | null)[] {
  const map = new Map<K, V>();
  for (const row of rows) map.set(keyOf(row), row);
  return keys.map((k) => map.get(k) ?? missing);
}

/** Groups rows under the keys asked for; a key without rows gets an empty list. */
export function groupByKeys<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const map = new Map<K, V[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return keys.map((k) => map.get(k) ?? []);
}
