import { DataSource } from "typeorm";
import { schemaNameOf } from "../../graphql/field-names";

/** Columns an API never shows. */
const HIDDEN = new Set(["pin_hash", "secret_hash", "password_hash"]);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}(:\d{2})?$/;

function camelCase(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Turns the rows the event trigger stores (for events whose resource has no GET, and the changed fields' names) (column names, PostgreSQL's JSON timestamps) into the
 * resource's API shape: the entity's property names where an entity maps the table, camelCase
 * otherwise, timestamps as ISO 8601 in UTC.
 */
export class EventPresenter {
  /** Table → column → property. */
  private readonly names = new Map<string, Map<string, string>>();

  constructor(db: DataSource) {
    for (const entity of db.entityMetadatas) {
      // Where the code renamed a column's property but the schema kept the column's name (a person
      // is `staffId` in the code, `workerId` on the wire), the event keeps the schema's name.
      const nameOf = (column: string, property: string): string => {
        const field = typeof entity.target === "function" ? schemaNameOf(entity.target, property) : property;
        return field === camelCase(column) ? field : property;
      };
      this.names.set(entity.tableName, new Map(entity.columns.map((c) => [c.databaseName, nameOf(c.databaseName, c.propertyName)])));
    }
  }

  /** `resource`, when given, keeps only the fields it has (the resource as its GET answers it). */
  present(table: string, row: Record<string, unknown> | null | undefined, resource?: Record<string, unknown>): Record<string, unknown> | undefined {
    if (!row) return undefined;
    const names = this.names.get(table);
    const out: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      if (HIDDEN.has(column)) continue;
      const name = names?.get(column) ?? camelCase(column);
      if (resource && !(name in resource)) continue;
      out[name] = typeof value === "string" && TIMESTAMP.test(value) ? new Date(value).toISOString() : value;
    }
    return out;
  }
}
