import isEmail from "validator/lib/isEmail";
import isLength from "validator/lib/isLength";
import { ArgumentValidationError } from "type-graphql";
import type { FieldViolation } from "../errors/client-error";

/**
 * The checks of input classes' fields (lengths, ranges, allowed values, nested inputs), declared
 * with decorators on the classes that GraphQL arguments and REST bodies become, and run by
 * `checkArgument` (type-graphql's validateFn) before a resolver sees them. Decorators, messages and
 * the order of findings follow class-validator's conventions, which clients know; only the checks
 * the inputs use are here, so that a start does not load that library and its dependencies (a
 * sixth of the files a start read, with validator's whole catalog and phone-number metadata).
 */

/** How a field's check is declared: its own message instead of the default, and whether it applies to each item of a list. */
export interface CheckOptions {
  message?: string | ((args: CheckArguments) => string);
  each?: boolean;
}

/** What a check and its message see. */
export interface CheckArguments {
  value: unknown;
  property: string;
  targetName: string;
  object: object;
  constraints: unknown[];
}

/** A custom check, as `CheckedBy` declares it. */
export interface FieldCheck {
  name: string;
  constraints?: unknown[];
  validator: {
    validate(value: unknown, args?: CheckArguments): boolean;
    defaultMessage(args?: CheckArguments): string;
  };
}

/** A check runs on the value; a condition decides whether the field is checked at all; nested checks the inputs inside. */
type Kind = "check" | "condition" | "nested";

interface Declared {
  target: Function;
  property: string;
  kind: Kind;
  check?: FieldCheck;
  condition?: (object: never, value: unknown) => boolean;
  options?: CheckOptions;
}

/** Every declaration, in the order the decorators ran (nearest the field first), by the class that declared it. */
const declaredOn = new Map<Function, Declared[]>();

function declare(entry: Declared): void {
  const list = declaredOn.get(entry.target);
  if (list) list.push(entry);
  else declaredOn.set(entry.target, [entry]);
}

/** Each input class's declarations by field, worked out at its first check: a class and its ancestors are whole once it is defined. */
const fieldsOfType = new Map<Function, Map<string, Declared[]>>();

/**
 * A class's declarations and those of its ancestors by field, in declaration order, its own first;
 * an ancestor's are dropped where the class declares the same kind for the same field (a subclass
 * redefines a field's checks whole).
 */
function fieldsOf(type: Function): Map<string, Declared[]> {
  let fields = fieldsOfType.get(type);
  if (fields) return fields;
  const own = declaredOn.get(type) ?? [];
  const inherited = [...declaredOn].filter(([target]) => target !== type && type.prototype instanceof target).flatMap(([, list]) => list);
  fields = new Map();
  for (const d of [...own, ...inherited.filter((i) => !own.some((o) => o.property === i.property && o.kind === i.kind))]) {
    const list = fields.get(d.property);
    if (list) list.push(d);
    else fields.set(d.property, [d]);
  }
  fieldsOfType.set(type, fields);
  return fields;
}

/** A field check made from a validation function and a default message (`$property`, `$constraint1`, `$value` are filled in). */
export function CheckedBy(check: FieldCheck, options?: CheckOptions): PropertyDecorator {
  return (target, property) => declare({ target: target.constructor, property: String(property), kind: "check", check, options });
}

/** A check with its conventional default message, "each value in " before it where it applies to each item. */
function builtIn(
  name: string,
  constraints: unknown[],
  accepts: (value: unknown) => boolean,
  message: string | ((args: CheckArguments) => string),
  options?: CheckOptions,
) {
  const text = typeof message === "string" ? () => message : message;
  return CheckedBy(
    { name, constraints, validator: { validate: accepts, defaultMessage: (args) => (options?.each ? "each value in " : "") + text(args!) } },
    options,
  );
}

/** The field is checked only when it holds a value (every field is: a missing one is the schema's to refuse). */
export function IsOptional(): PropertyDecorator {
  return ValidateIf((_input: object, value) => value !== null && value !== undefined);
}

/** The field is checked only when `condition` holds. */
export function ValidateIf<T>(condition: (object: T, value: unknown) => boolean): PropertyDecorator {
  return (target, property) =>
    declare({ target: target.constructor, property: String(property), kind: "condition", condition: condition as Declared["condition"] });
}

/** The input (or each input of the list) in the field is checked with its own class's checks. */
export function ValidateNested(options?: CheckOptions): PropertyDecorator {
  return (target, property) => declare({ target: target.constructor, property: String(property), kind: "nested", options });
}

export const Min = (min: number, options?: CheckOptions) =>
  builtIn("min", [min], (v) => typeof v === "number" && v >= min, "$property must not be less than $constraint1", options);

export const Max = (max: number, options?: CheckOptions) =>
  builtIn("max", [max], (v) => typeof v === "number" && v <= max, "$property must not be greater than $constraint1", options);

export const ArrayMaxSize = (max: number, options?: CheckOptions) =>
  builtIn("arrayMaxSize", [max], (v) => Array.isArray(v) && v.length <= max, "$property must contain no more than $constraint1 elements", options);

export const ArrayMinSize = (min: number, options?: CheckOptions) =>
  builtIn("arrayMinSize", [min], (v) => Array.isArray(v) && v.length >= min, "$property must contain at least $constraint1 elements", options);

/** Length in characters as people count them: a surrogate pair or a variation selector counts with the character it belongs to. */
export const Length = (min: number, max?: number, options?: CheckOptions) =>
  builtIn(
    "isLength",
    [min, max],
    (v) => typeof v === "string" && isLength(v, { min, max }),
    ({ value }) => {
      const text = value as string | undefined;
      if (!text || text.length < min) return "$property must be longer than or equal to $constraint1 characters";
      if (max !== undefined && text.length > max) return "$property must be shorter than or equal to $constraint2 characters";
      return "$property must be longer than or equal to $constraint1 and shorter than or equal to $constraint2 characters";
    },
    options,
  );

export const MaxLength = (max: number, options?: CheckOptions) =>
  builtIn(
    "maxLength",
    [max],
    (v) => typeof v === "string" && isLength(v, { min: 0, max }),
    "$property must be shorter than or equal to $constraint1 characters",
    options,
  );

export const IsIn = (allowed: readonly unknown[], options?: CheckOptions) =>
  builtIn("isIn", [allowed], (v) => allowed.some((a) => a === v), "$property must be one of the following values: $constraint1", options);

export const IsBoolean = (options?: CheckOptions) =>
  builtIn("isBoolean", [], (v) => v instanceof Boolean || typeof v === "boolean", "$property must be a boolean value", options);

export const IsInt = (options?: CheckOptions) =>
  builtIn("isInt", [], (v) => typeof v === "number" && Number.isInteger(v), "$property must be an integer number", options);

/** A finite number (NaN and the infinities are refused). */
export const IsNumber = (options?: CheckOptions) =>
  builtIn("isNumber", [], (v) => typeof v === "number" && Number.isFinite(v), "$property must be a number conforming to the specified constraints", options);

export const IsEmail = (options?: CheckOptions) => builtIn("isEmail", [], (v) => typeof v === "string" && isEmail(v), "$property must be an email", options);

export const Matches = (pattern: RegExp, options?: CheckOptions) =>
  builtIn("matches", [pattern], (v) => typeof v === "string" && v.match(pattern) !== null, "$property must match $constraint1 regular expression", options);

function constraintText(constraint: unknown): string {
  return Array.isArray(constraint) ? constraint.join(", ") : `${constraint}`;
}

/** The message of a failed check, its tokens ($constraint1, $value, $property, $target) filled in. */
function messageOf(declared: Declared, args: CheckArguments): string {
  const own = declared.options?.message;
  let text = typeof own === "function" ? own(args) : (own ?? declared.check!.validator.defaultMessage(args));
  args.constraints.forEach((constraint, i) => (text = text.replace(new RegExp(`\\$constraint${i + 1}`, "g"), constraintText(constraint))));
  if (["string", "boolean", "number"].includes(typeof args.value)) text = text.replace(/\$value/g, String(args.value));
  return text.replace(/\$property/g, args.property).replace(/\$target/g, args.targetName);
}

/** One field (or item of a nested list) checked against its declarations; undefined when nothing is wrong. */
function checkField(object: object, value: unknown, property: string, declared: Declared[]): FieldViolation | undefined {
  const violation: FieldViolation = { property, value, constraints: {}, children: [] };
  const conditions = declared.filter((d) => d.kind === "condition");
  if (!conditions.every((d) => d.condition!(object as never, value))) return undefined;
  // Missing fields are not checked (type-graphql's skipMissingProperties): the schema says which are required.
  if (value !== null && value !== undefined) {
    for (const d of declared.filter((x) => x.kind === "check")) {
      const check = d.check!;
      const args: CheckArguments = { value, property, targetName: object.constructor.name, object, constraints: check.constraints ?? [] };
      const passes =
        d.options?.each && Array.isArray(value) ? value.every((item) => check.validator.validate(item, args)) : check.validator.validate(value, args);
      if (!passes) violation.constraints![check.name] = messageOf(d, args);
    }
    const nested = declared.find((d) => d.kind === "nested");
    if (nested && Array.isArray(value)) {
      value.forEach((item, index) => {
        const inner = checkField(value, item, String(index), [nested]);
        if (inner) violation.children!.push(inner);
      });
    } else if (nested && typeof value === "object") {
      violation.children!.push(...checkObject(value));
    } else if (nested) {
      violation.constraints!.nestedValidation = `${nested.options?.each ? "each value in " : ""}nested property ${property} must be either object or array`;
    }
  }
  return Object.keys(violation.constraints!).length || violation.children!.length ? violation : undefined;
}

/**
 * type-graphql's check of an argument: an input object, or each of a list of them, refused with
 * the findings of the first one that has any.
 */
export function checkArgument(value: unknown): void {
  for (const input of Array.isArray(value) ? value : [value]) {
    if (input === null || typeof input !== "object") continue;
    const violations = checkObject(input);
    if (violations.length) throw new ArgumentValidationError(violations as never);
  }
}

/** What is wrong with an input object, field by field in the order their checks were declared (none: an empty list). */
export function checkObject(input: object): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const [property, declared] of fieldsOf(input.constructor)) {
    const found = checkField(input, (input as Record<string, unknown>)[property], property, declared);
    if (found) violations.push(found);
  }
  return violations;
}
