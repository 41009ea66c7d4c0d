import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

/** When a record was made and last changed. */
@ObjectType({ simpleResolvers: true })
export abstract class Timestamps {
  @Field()
  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ name: "updated_at", type: "timestamptz" })
  updatedAt: Date;
}

/** The columns every tenant record has: its id, its organization, and when it was made and changed. */
@ObjectType({ simpleResolvers: true })
export abstract class TenantRecord extends Timestamps {
  @Field(() => ID)
  @PrimaryGeneratedColumn("uuid")
  id: string;

  @Field(() => ID)
  @Column({ name: "organization_id", type: "uuid" })
  organizationId: string;
}

/** numeric columns arrive as strings (exact); the API serves numbers. */
export const numericColumn = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null || value === undefined ? null : Number(value)),
};

/** Hours and money are exact in storage and rounded to two decimals on output. */
export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
