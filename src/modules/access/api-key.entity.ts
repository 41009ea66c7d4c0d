import { Field, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A credential of the organization, exchanged for access tokens. The secret itself is never stored" })
@Entity("api_keys")
export class ApiKey extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field({ description: "The first characters of the key, to tell keys apart" })
  @Column({ type: "text" })
  prefix: string;

  @Column({ name: "secret_hash", type: "text" })
  secretHash: string;

  @Field(() => Date, { nullable: true })
  @Column({ name: "last_used_at", type: "timestamptz", nullable: true })
  lastUsedAt: Date | null;

  @Field(() => Date, { nullable: true })
  @Column({ name: "revoked_at", type: "timestamptz", nullable: true })
  revokedAt: Date | null;
}
