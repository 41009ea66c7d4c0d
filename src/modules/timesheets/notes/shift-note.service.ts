import { In } from "typeorm";
import { Actor, can } from "../../../auth/actor";
import { requireUuid } from "../../../common/ids";
import { ServiceDeps } from "../../../common/services";
import { forbidden, notFound } from "../../../errors/app-error";
import { groupByKeys } from "../../../loaders/loaders";
import { ShiftNote } from "./shift-note.entity";
import { ShiftNoteInput } from "./shift-note.graphql";
import { ShiftService } from "../shifts/shift.service";
import { findOneBy } from "../../../common/entity-reads";

/**
 * Notes on shifts. Whoever may read a shift reads its notes; a worker writes on their own shifts,
 * a manager on any. Authors edit and delete their own notes; managers may delete any note.
 */
export class ShiftNoteService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly shifts: ShiftService,
  ) {}

  private get repo() {
    return this.deps.db.getRepository(ShiftNote);
  }

  async list(actor: Actor, shiftId: string): Promise<ShiftNote[]> {
    const shift = await this.shifts.get(actor, shiftId);
    return this.repo.find({ where: { organizationId: actor.organizationId, shiftId: shift.id }, order: { createdAt: "ASC", id: "ASC" } });
  }

  /** Notes of many shifts, for loaders (the shifts were already read by the caller). */
  async ofShifts(organizationId: string, shiftIds: readonly string[]): Promise<ShiftNote[][]> {
    const rows = await this.repo.find({ where: { organizationId, shiftId: In([...shiftIds]) }, order: { createdAt: "ASC", id: "ASC" } });
    return groupByKeys(shiftIds, rows, (n) => n.shiftId);
  }

  async add(actor: Actor, shiftId: string, input: ShiftNoteInput): Promise<ShiftNote> {
    const shift = await this.shifts.get(actor, shiftId);
    if (!can(actor, "timesheets:write") && shift.employeeId !== actor.staffId) throw forbidden("Only managers write notes on other staff members' shifts");
    const note = this.repo.create({ organizationId: actor.organizationId, shiftId: shift.id, authorId: actor.staffId, text: input.text.trim() });
    return this.deps.unitOfWork.run((manager) => manager.save(note));
  }

  async update(actor: Actor, shiftId: string, id: string, input: ShiftNoteInput): Promise<ShiftNote> {
    const note = await this.get(actor, shiftId, id);
    if (note.authorId !== actor.staffId) throw forbidden("Only the author changes a note");
    note.text = input.text.trim();
    return this.deps.unitOfWork.run((manager) => manager.save(note));
  }

  async delete(actor: Actor, shiftId: string, id: string): Promise<boolean> {
    const note = await this.get(actor, shiftId, id);
    if (note.authorId !== actor.staffId && !can(actor, "timesheets:write")) throw forbidden("Only the author or a manager deletes a note");
    await this.deps.unitOfWork.run((manager) => manager.delete(ShiftNote, { id: note.id, organizationId: actor.organizationId }));
    return true;
  }

  private async get(actor: Actor, shiftId: string, id: string): Promise<ShiftNote> {
    const shift = await this.shifts.get(actor, shiftId);
    const note = await findOneBy(this.repo.manager, ShiftNote, { id: requireUuid(id, "Note"), shiftId: shift.id, organizationId: actor.organizationId });
    if (!note) throw notFound("Note");
    return note;
  }
}
