import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Shift requests: a worker's published entry offered as a SWAP (for another worker's entry), a
 * COVER (to a named worker, or open to any eligible one) or a DROP. `entry_start`/`entry_end` (and
 * those of the recipient's entry) are the entries as they stood when asked: a request whose entry
 * changed, went away or started meanwhile is EXPIRED. One live request per entry, held by a
 * partial unique index. The acknowledgement of compliance errors at approval is kept with it.
 *
 * `shift_request_settings`: a location that lets acceptance complete a request without a manager
 * (`requires_approval` false); a location without a row asks for approval.
 */
export class CreateShiftRequests1763902410000 implements MigrationInterface {
  name = "CreateShiftRequests1763902410000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE shift_requests (
        id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id          uuid NOT NULL,
        type                 text NOT NULL CHECK (type IN ('SWAP', 'COVER', 'DROP')),
        status               text NOT NULL CHECK (status IN ('OPEN', 'PENDING_RECIPIENT', 'PENDING_APPROVAL', 'APPROVED', 'DECLINED', 'REJECTED', 'CANCELLED', 'EXPIRED')),
        requester_id         uuid NOT NULL,
        entry_id             uuid NOT NULL,
        entry_start          timestamptz NOT NULL,
        entry_end            timestamptz NOT NULL,
        recipient_id         uuid,
        recipient_entry_id   uuid,
        recipient_entry_start timestamptz,
        recipient_entry_end  timestamptz,
        note                 text CHECK (length(note) <= 2000),
        open_shift_id        uuid,
        decided_by           uuid,
        decided_at           timestamptz,
        acknowledged_reason  text CHECK (length(acknowledged_reason) <= 2000),
        acknowledged_violations jsonb,
        created_by           uuid,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_shift_requests_org_id UNIQUE (organization_id, id),
        CONSTRAINT fk_shift_requests_location FOREIGN KEY (organization_id, location_id) REFERENCES locations (organization_id, id),
        CONSTRAINT fk_shift_requests_requester FOREIGN KEY (organization_id, requester_id) REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_shift_requests_recipient FOREIGN KEY (organization_id, recipient_id) REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_shift_requests_entry FOREIGN KEY (organization_id, entry_id) REFERENCES schedule_entries (organization_id, id),
        CONSTRAINT fk_shift_requests_recipient_entry FOREIGN KEY (organization_id, recipient_entry_id) REFERENCES schedule_entries (organization_id, id),
        CONSTRAINT fk_shift_requests_open_shift FOREIGN KEY (organization_id, open_shift_id) REFERENCES open_shifts (organization_id, id) ON DELETE SET NULL (open_shift_id),
        CONSTRAINT ck_shift_requests_swap CHECK ((type = 'SWAP') = (recipient_entry_id IS NOT NULL))
      );
      -- One live request per entry: two workers offering the same entry at once, the second is refused.
      CREATE UNIQUE INDEX uq_shift_requests_live_entry ON shift_requests (organization_id, entry_id)
        WHERE status IN ('OPEN', 'PENDING_RECIPIENT', 'PENDING_APPROVAL');
      CREATE INDEX ix_shift_requests_requester ON shift_requests (organization_id, requester_id, created_at);
      CREATE INDEX ix_shift_requests_recipient ON shift_requests (organization_id, recipient_id, created_at) WHERE recipient_id IS NOT NULL;
      CREATE INDEX ix_shift_requests_live ON shift_requests (organization_id, status, created_at) WHERE status IN ('OPEN', 'PENDING_RECIPIENT', 'PENDING_APPROVAL');
      SELECT audit_table('shift_requests');
      SELECT record_status_events_of('shift_requests', 'shift_request');

      CREATE TABLE shift_request_settings (
        organization_id   uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id       uuid NOT NULL,
        requires_approval boolean NOT NULL DEFAULT true,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, location_id),
        CONSTRAINT fk_shift_request_settings_location FOREIGN KEY (organization_id, location_id) REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );
      SELECT audit_table('shift_request_settings');

      UPDATE access_roles SET permissions = permissions || ARRAY['shiftrequests:self']
       WHERE is_system AND name = 'Worker' AND NOT ('shiftrequests:self' = ANY (permissions));
      UPDATE access_roles SET permissions = permissions || ARRAY['shiftrequests:self', 'shiftrequests:manage']
       WHERE is_system AND name IN ('Admin', 'Manager') AND NOT ('shiftrequests:manage' = ANY (permissions));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE access_roles SET permissions = array_remove(array_remove(permissions, 'shiftrequests:self'), 'shiftrequests:manage');
      DROP TABLE shift_request_settings;
      DROP TABLE shift_requests;
    `);
  }
}
