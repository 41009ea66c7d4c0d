import DataLoader from "dataloader";

/**
 * The data loaders of one request. Each is made on first use and lives as long as the request, so
 * loads made in one tick become one query and no cached row outlives the request (or leaks to
 * another organization's request).
 */
export class Loaders {
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>();

  get<K, V>(name: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>): DataLoader<K, V> {
    let loader = this.loaders.get(name);
    if (!loader) {
      loader = new DataLoader<K, V>(batch, { maxBatchSize: 5000 }) as DataLoader<unknown, unknown>;
      this.loaders.set(name, loader);
    }
    return loader as DataLoader<K, V>;
  }
}

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
