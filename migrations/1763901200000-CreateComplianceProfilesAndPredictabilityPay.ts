import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Labor-law compliance.
 *
 * `compliance_profiles`: a location's rule set, a preset named after the law it follows and the
 * figures the location sets itself (`overrides`, figure name → value; a null value switches the
 * rule off). A location without a row follows the preset NONE.
 *
 * `predictability_pay`: what a change to a published entry inside the notice window owes its
 * worker, written in the transaction of the change, for payroll.
 *
 * `compliance_acknowledgements`: a manager published a range despite its errors, with the reason
 * and the violations as they stood; the audit trail records who and when.
 */
export class CreateComplianceProfilesAndPredictabilityPay1763901200000 implements MigrationInterface {
  name = "CreateComplianceProfilesAndPredictabilityPay1763901200000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE compliance_profiles (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id     uuid NOT NULL,
        preset          text NOT NULL DEFAULT 'NONE'
          CHECK (preset IN ('NONE', 'US_CA', 'US_OR', 'US_WA_SEATTLE', 'US_NY_NYC_FAST_FOOD', 'US_IL_CHICAGO')),
        overrides       jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(overrides) = 'object'),
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_compliance_profiles_location UNIQUE (organization_id, location_id),
        CONSTRAINT fk_compliance_profiles_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );
      SELECT audit_table('compliance_profiles');

      CREATE TABLE predictability_pay (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id     uuid NOT NULL,
        entry_id        uuid NOT NULL,
        worker_id       uuid NOT NULL,
        shift_start     timestamptz NOT NULL,
        changed_at      timestamptz NOT NULL,
        change          text NOT NULL CHECK (change IN ('ADDED', 'MOVED', 'REDUCED')),
        hours           numeric(10, 4) NOT NULL CHECK (hours >= 0),
        amount          numeric(14, 4) NOT NULL CHECK (amount >= 0),
        citation        text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT fk_predictability_pay_entry FOREIGN KEY (organization_id, entry_id)
          REFERENCES schedule_entries (organization_id, id),
        CONSTRAINT fk_predictability_pay_worker FOREIGN KEY (organization_id, worker_id)
          REFERENCES staff_members (organization_id, id)
      );
      CREATE INDEX ix_predictability_pay_worker ON predictability_pay (organization_id, worker_id, shift_start);
      CREATE INDEX ix_predictability_pay_location ON predictability_pay (organization_id, location_id, shift_start);
      CREATE INDEX ix_predictability_pay_entry ON predictability_pay (entry_id);
      SELECT audit_table('predictability_pay');

      CREATE TABLE compliance_acknowledgements (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id     uuid NOT NULL,
        start_date      date NOT NULL,
        end_date        date NOT NULL,
        reason          text NOT NULL CHECK (length(reason) BETWEEN 1 AND 2000),
        violations      jsonb NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT fk_compliance_acknowledgements_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id)
      );
      CREATE INDEX ix_compliance_acknowledgements_location ON compliance_acknowledgements (organization_id, location_id, start_date);
      SELECT audit_table('compliance_acknowledgements');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE compliance_acknowledgements;
      DROP TABLE predictability_pay;
      DROP TABLE compliance_profiles;
    `);
  }
}
