import {
  ArrayMaxSize,
  ArrayMinSize,
  checkArgument,
  checkObject,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from "../../src/common/input-checks";
import { AtMostDecimals, NoControlCharacters } from "../../src/common/validation";
import { GraphQLError } from "graphql";
import { toClientError } from "../../src/errors/client-error";

class BreakInput {
  @Min(0)
  @Max(240)
  durationMinutes!: number;

  @IsOptional()
  @MaxLength(10)
  name?: string | null;
}

class ShiftInput {
  @Length(1, 5)
  @NoControlCharacters()
  label!: string;

  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  breaks?: BreakInput[];

  @MaxLength(3, { each: true })
  @IsIn(["ab", "cd"], { each: true })
  tags?: string[];

  @IsBoolean()
  paid?: unknown;

  @IsInt()
  count?: unknown;

  @IsNumber({ message: "hours must be a number" })
  hours?: unknown;

  @AtMostDecimals(2)
  wage?: number;

  @IsEmail()
  email?: string;

  @Matches(/^\d+(st|nd|rd|th)$/, { message: "day must be like 1st" })
  day?: string;

  @ArrayMinSize(1)
  days?: string[];

  @ValidateIf((shift: ShiftInput) => shift.paid === true)
  @Min(10)
  rate?: number;

  @ValidateNested()
  main?: BreakInput;
}

/** A subclass that declares its own checks of `label` (they replace the base's) and adds one. */
class NamedShiftInput extends ShiftInput {
  @MaxLength(2)
  declare label: string;

  @Min(1)
  extra?: number;
}

const shift = (fields: Partial<ShiftInput>, type: new () => ShiftInput = ShiftInput) => Object.assign(new type(), { label: "ok", ...fields });
const breakOf = (fields: Partial<BreakInput>) => Object.assign(new BreakInput(), fields);
/** The details of a refusal as every interface shows them (a resolver's error reaches them wrapped by graphql-js). */
const shown = (error: Error) => toClientError(new GraphQLError(error.message, { originalError: error })).details;
const details = (input: object) => {
  try {
    checkArgument(input);
  } catch (error) {
    return shown(error as Error);
  }
  return [];
};

describe("the checks of input fields", () => {
  it("accepts a valid input and leaves missing fields to the schema", () => {
    expect(checkObject(shift({ breaks: [breakOf({ durationMinutes: 30 })], tags: ["ab"], paid: false, count: 2, hours: 1.5, wage: 12.25 }))).toEqual([]);
    expect(checkObject(shift({ breaks: undefined, tags: undefined, hours: null as never }))).toEqual([]);
  });

  it("words each refusal with the field's name and the check's figures", () => {
    const found = details(
      shift({
        label: "toolong",
        paid: "yes",
        count: 1.5,
        hours: Infinity,
        wage: 1.234,
        email: "not-an-email",
        day: "32",
        days: [],
      }),
    );
    expect(found).toEqual([
      { field: "label", message: "label must be shorter than or equal to 5 characters" },
      { field: "paid", message: "paid must be a boolean value" },
      { field: "count", message: "count must be an integer number" },
      { field: "hours", message: "hours must be a number" },
      { field: "wage", message: "wage must have at most 2 decimals" },
      { field: "email", message: "email must be an email" },
      { field: "day", message: "day must be like 1st" },
      { field: "days", message: "days must contain at least 1 elements" },
    ]);
    expect(details(shift({ label: "" }))).toEqual([{ field: "label", message: "label must be longer than or equal to 1 characters" }]);
    expect(details(shift({ label: "a\nb" }))).toEqual([{ field: "label", message: "label must not contain control characters such as line breaks or tabs" }]);
  });

  it("counts characters as people do: a surrogate pair is one", () => {
    expect(details(shift({ label: "😀😀😀😀😀" }))).toEqual([]);
    expect(details(shift({ label: "😀😀😀😀😀😀" }))).toEqual([{ field: "label", message: "label must be shorter than or equal to 5 characters" }]);
  });

  it("checks each item of a list where asked, and says so, in the order the checks were declared from the field up", () => {
    expect(details(shift({ tags: ["ab", "xyzw"] }))).toEqual([
      { field: "tags", message: "each value in tags must be one of the following values: ab, cd" },
      { field: "tags", message: "each value in tags must be shorter than or equal to 3 characters" },
    ]);
    expect(details(shift({ tags: ["ab", "cd"] }))).toEqual([]);
  });

  it("checks nested inputs with their own class's checks, naming the item", () => {
    const found = details(
      shift({
        breaks: [breakOf({ durationMinutes: 30 }), breakOf({ durationMinutes: -1, name: "a long break name" })],
        main: breakOf({ durationMinutes: 999 }),
      }),
    );
    expect(found).toEqual([
      { field: "breaks.1.durationMinutes", message: "durationMinutes must not be less than 0" },
      { field: "breaks.1.name", message: "name must be shorter than or equal to 10 characters" },
      { field: "main.durationMinutes", message: "durationMinutes must not be greater than 240" },
    ]);
    expect(details(shift({ breaks: [breakOf({}), breakOf({}), breakOf({})] }))).toEqual([
      { field: "breaks", message: "breaks must contain no more than 2 elements" },
    ]);
  });

  it("checks a field only when its condition holds", () => {
    expect(details(shift({ paid: false, rate: 1 }))).toEqual([]);
    expect(details(shift({ paid: true, rate: 1 }))).toEqual([{ field: "rate", message: "rate must not be less than 10" }]);
  });

  it("lets a subclass redefine a field's checks and keeps the base's other fields", () => {
    expect(details(shift({ label: "abc", extra: 0, count: 0.5 } as Partial<NamedShiftInput>, NamedShiftInput))).toEqual([
      { field: "label", message: "label must be shorter than or equal to 2 characters" },
      { field: "extra", message: "extra must not be less than 1" },
      { field: "count", message: "count must be an integer number" },
    ]);
  });

  it("checks each input of a list argument and refuses with the first one found wrong", () => {
    expect(() => checkArgument([shift({}), 5, null])).not.toThrow();
    expect(shown(catchError(() => checkArgument([shift({}), shift({ count: 0.5 }), shift({ paid: 1 })])))).toEqual([
      { field: "count", message: "count must be an integer number" },
    ]);
  });
});

function catchError(run: () => void): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("nothing was thrown");
}
