// The mock's in-memory resources: per store (mockData.schemas, see scripts/sdk-generator/mock-resources.ts) the
// resources created or changed in this session, newest last, and the Idempotency-Key records.
import type { MockData } from "./types.ts";

type Json = Record<string, unknown>;

export interface Stored {
  value: Json;
  /** Fields that identify the resource (its id, what its creation or an update set, createdAt): an action answering
   * with another example keeps them. */
  identity: string[];
}

export const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export class MockState {
  private stores = new Map<string, Map<string, Stored>>();

  private readonly data: MockData;

  constructor(data: MockData) {
    this.data = data;
  }

  reset(): void {
    this.stores = new Map();
  }

  get(store: string, id: string): Stored | undefined {
    return this.stores.get(store)?.get(id);
  }

  /** Created in this session, or shown by the spec. */
  known(store: string, id: string): boolean {
    return this.stores.get(store)?.has(id) === true || this.data.schemas[store]?.exampleIds?.includes(id) === true;
  }

  /** Stores (or replaces, as the newest) a resource. */
  put(store: string, id: string, entry: Stored): void {
    let byId = this.stores.get(store);
    if (!byId) {
      byId = new Map();
      this.stores.set(store, byId);
    }
    byId.delete(id);
    byId.set(id, { value: clone(entry.value), identity: entry.identity });
  }

  delete(store: string, id: string): void {
    this.stores.get(store)?.delete(id);
  }

  /** Every resource of a store, newest first. */
  newestFirst(store: string): Stored[] {
    return [...(this.stores.get(store)?.values() ?? [])].reverse();
  }

  /** A stored resource as `schema` shows it: only its properties (a view hides what the stored one has beyond it). */
  project(value: Json, schema: string): Json {
    const properties = this.data.schemas[schema]?.properties;
    if (!properties) return clone(value);
    const out: Json = {};
    for (const k of properties) if (k in value) out[k] = clone(value[k]);
    return out;
  }
}
