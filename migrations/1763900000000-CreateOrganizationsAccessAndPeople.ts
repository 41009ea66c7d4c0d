import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The foundation: platform secrets, organizations, access roles and API keys, locations, roles and
 * staff members with their role and location assignments.
 *
 * Every tenant table has organization_id, and references between tenant tables include it
 * (composite foreign keys onto UNIQUE (organization_id, id)), so a row can never point into
 * another organization.
 */
export class CreateOrganizationsAccessAndPeople1763900000000 implements MigrationInterface {
  name = "CreateOrganizationsAccessAndPeople1763900000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform_settings (
        key   text PRIMARY KEY,
        value text NOT NULL
      );

      CREATE TABLE organizations (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name       text NOT NULL,
        timezone   text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE access_roles (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name            text NOT NULL,
        permissions     text[] NOT NULL DEFAULT '{}',
        is_system       boolean NOT NULL DEFAULT false,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_access_roles_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_access_roles_name UNIQUE (organization_id, name)
      );

      CREATE TABLE api_keys (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name            text NOT NULL,
        prefix          text NOT NULL,
        secret_hash     text NOT NULL,
        last_used_at    timestamptz,
        revoked_at      timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_api_keys_secret_hash UNIQUE (secret_hash)
      );
      CREATE INDEX ix_api_keys_org ON api_keys (organization_id, created_at);

      CREATE TABLE locations (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name            text NOT NULL,
        timezone        text NOT NULL,
        external_id     text,
        address         text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_locations_org_id UNIQUE (organization_id, id)
      );
      CREATE INDEX ix_locations_org_name ON locations (organization_id, name, id);

      CREATE TABLE roles (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name            text NOT NULL,
        hourly_wage     numeric(14, 4) CHECK (hourly_wage >= 0),
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_roles_org_id UNIQUE (organization_id, id)
      );
      CREATE INDEX ix_roles_org_name ON roles (organization_id, name, id);

      CREATE TABLE staff_members (
        id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name                 text NOT NULL,
        external_employee_id text,
        payroll_id           text,
        email                text,
        hourly_wage          numeric(14, 4) CHECK (hourly_wage >= 0),
        access_role_id       uuid NOT NULL,
        active               boolean NOT NULL DEFAULT true,
        deleted_at           timestamptz,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_staff_members_org_id UNIQUE (organization_id, id),
        CONSTRAINT fk_staff_members_access_role FOREIGN KEY (organization_id, access_role_id)
          REFERENCES access_roles (organization_id, id)
      );
      CREATE UNIQUE INDEX uq_staff_members_external_employee_id
        ON staff_members (organization_id, external_employee_id)
        WHERE external_employee_id IS NOT NULL AND deleted_at IS NULL;
      CREATE INDEX ix_staff_members_org_name ON staff_members (organization_id, name, id);
      CREATE INDEX ix_staff_members_access_role ON staff_members (organization_id, access_role_id);

      CREATE TABLE staff_roles (
        organization_id uuid NOT NULL,
        staff_id        uuid NOT NULL,
        role_id         uuid NOT NULL,
        hourly_wage     numeric(14, 4) CHECK (hourly_wage >= 0),
        PRIMARY KEY (staff_id, role_id),
        CONSTRAINT fk_staff_roles_staff FOREIGN KEY (organization_id, staff_id)
          REFERENCES staff_members (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_staff_roles_role FOREIGN KEY (organization_id, role_id)
          REFERENCES roles (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ix_staff_roles_role ON staff_roles (organization_id, role_id);

      CREATE TABLE staff_locations (
        organization_id uuid NOT NULL,
        staff_id        uuid NOT NULL,
        location_id     uuid NOT NULL,
        PRIMARY KEY (staff_id, location_id),
        CONSTRAINT fk_staff_locations_staff FOREIGN KEY (organization_id, staff_id)
          REFERENCES staff_members (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_staff_locations_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ix_staff_locations_location ON staff_locations (organization_id, location_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE staff_locations;
      DROP TABLE staff_roles;
      DROP TABLE staff_members;
      DROP TABLE roles;
      DROP TABLE locations;
      DROP TABLE api_keys;
      DROP TABLE access_roles;
      DROP TABLE organizations;
      DROP TABLE platform_settings;
    `);
  }
}
