import { getMetadataStorage } from "type-graphql";

/**
 * The name a class's property has on the wire: its `@Field({ name })` where the code and the
 * schema name it differently (a person is `staffId` in the code, `workerId` in some types), else
 * the property itself. Fields declared on a base class count for the classes that extend it.
 */
export function schemaNameOf(target: Function, property: string): string {
  const fields = getMetadataStorage().fields;
  for (let type = target; type && type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    const field = fields.find((f) => f.target === type && f.name === property);
    if (field) return field.schemaName;
  }
  return property;
}
