/** Svc_Ticket: opening standard tickets, adding updates, attaching hardware and guests. */
import { TICKET_OPEN, TICKET_SUBJECTS } from '../catalog';
import { invalidValue, propertyNotValid, publicFault } from '../errors';
import type { TicketRec, TicketUpdateRec } from '../records';
import { typeDef } from '../schema';
import {
  expectArgs,
  intArg,
  list,
  ok,
  one,
  owned,
  requireId,
  structArg,
  type AuthedContext,
} from './context';
import { defineService } from './registry';

const MAX_ENTRY = 64 * 1024;
const TEMPLATE_EXTRAS = new Set(['complexType', 'contents']);

const loadTicket = (ctx: AuthedContext): TicketRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('tickets', id), id);
};

function checkEntry(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw invalidValue(
      `Invalid value provided for '${field}': the text of a ticket update must be a non-empty string.`,
    );
  }
  if (value.length > MAX_ENTRY)
    throw invalidValue(
      `Invalid value provided for '${field}': limited to ${MAX_ENTRY} characters.`,
    );
  return value;
}

function newUpdate(ctx: AuthedContext, ticketId: number, entry: string): TicketUpdateRec {
  return {
    id: ctx.store.nextId('ticketUpdates'),
    accountId: ctx.account.id,
    ticketId,
    entry,
    createDate: ctx.now,
    editorType: 'USER',
    editorId: ctx.user.id,
  };
}

/** Adds `id` (a hardware server or guest of the caller's account) to one of the ticket's lists. */
function attach(
  kind: 'hardware' | 'guests',
  field: 'attachedHardwareIds' | 'attachedGuestIds',
  idKey: string,
) {
  return {
    handler: async (ctx: AuthedContext) => {
      expectArgs(ctx, [idKey]);
      const ticket = loadTicket(ctx);
      const id = intArg(ctx, 0, idKey);
      owned(ctx, ctx.store.get(kind, id), id);
      const ids = ticket[field].includes(id) ? ticket[field] : [...ticket[field], id];
      await ctx.store.write([
        { put: 'tickets', record: { ...ticket, [field]: ids, modifyDate: ctx.now } },
      ]);
      return ok({ id: ctx.store.nextSubId(), ticketId: ticket.id, [idKey]: id });
    },
  };
}

defineService({
  name: 'Ticket',
  load: loadTicket,
  methods: {
    createStandardTicket: {
      handler: async (ctx) => {
        // (templateObject, contents, attachmentId, rootPassword, controlPanelPassword, accessPort, attachedFiles, attachmentType)
        expectArgs(
          ctx,
          [
            'templateObject',
            'contents',
            'attachmentId',
            'rootPassword',
            'controlPanelPassword',
            'accessPort',
            'attachedFiles',
            'attachmentType',
          ],
          2,
        );
        const template = structArg(ctx, 0, 'templateObject');
        const ticketType = typeDef('Svc_Ticket');
        for (const key of Object.keys(template)) {
          if (
            !TEMPLATE_EXTRAS.has(key) &&
            !ticketType.locals.has(key) &&
            !ticketType.relations.has(key)
          ) {
            throw propertyNotValid(key, 'Svc_Ticket');
          }
        }
        if (typeof template.title !== 'string' || template.title.trim() === '') {
          throw publicFault("Property 'title' must be set to create an instance of Svc_Ticket.");
        }
        if (template.title.length > 255)
          throw invalidValue("Invalid value provided for 'title': limited to 255 characters.");
        const subjectId = Number(template.subjectId);
        if (!TICKET_SUBJECTS.some((s) => s.id === subjectId)) {
          throw publicFault(
            `Invalid value provided for 'subjectId': ${String(template.subjectId)}. Choose one of: ${TICKET_SUBJECTS.map((s) => `${s.id} (${s.name})`).join(', ')}.`,
          );
        }
        let assignedUserId = ctx.user.id;
        if (template.assignedUserId !== undefined && template.assignedUserId !== null) {
          assignedUserId = Number(template.assignedUserId);
          const user = ctx.store.get('users', assignedUserId);
          if (!user || user.accountId !== ctx.account.id) {
            throw publicFault(
              `Invalid value provided for 'assignedUserId': no user ${String(template.assignedUserId)} in this account.`,
            );
          }
        }
        let priority: number | undefined;
        if (template.priority !== undefined && template.priority !== null) {
          priority = Number(template.priority);
          if (!Number.isInteger(priority) || priority < 0 || priority > 4) {
            throw invalidValue(
              `Invalid value provided for 'priority': ${String(template.priority)}. Expected 0 to 4.`,
            );
          }
        }
        const body = checkEntry(ctx.args[1], 'contents');
        const ticket: TicketRec = {
          id: ctx.store.nextId('tickets'),
          accountId: ctx.account.id,
          title: template.title,
          subjectId,
          assignedUserId,
          priority,
          statusId: TICKET_OPEN,
          createDate: ctx.now,
          modifyDate: ctx.now,
          attachedHardwareIds: [],
          attachedGuestIds: [],
        };
        await ctx.store.write([
          { put: 'tickets', record: ticket },
          { put: 'ticketUpdates', record: newUpdate(ctx, ticket.id, body) },
        ]);
        return one(ctx, 'Svc_Ticket', ticket);
      },
    },
    addUpdate: {
      handler: async (ctx) => {
        expectArgs(ctx, ['templateObject', 'attachedFiles'], 1);
        const ticket = loadTicket(ctx);
        const entry = checkEntry(structArg(ctx, 0, 'templateObject').entry, 'entry');
        const update = newUpdate(ctx, ticket.id, entry);
        await ctx.store.write([
          { put: 'ticketUpdates', record: update },
          { put: 'tickets', record: { ...ticket, modifyDate: ctx.now } },
        ]);
        return one(ctx, 'Svc_Ticket_Update', update);
      },
    },
    addAttachedHardware: attach('hardware', 'attachedHardwareIds', 'hardwareId'),
    addAttachedVirtualGuest: attach('guests', 'attachedGuestIds', 'virtualGuestId'),
  },
});

defineService({
  name: 'Ticket_Subject',
  methods: {
    getAllObjects: {
      access: 'optional',
      handler: (ctx) => {
        expectArgs(ctx, []);
        return list(ctx, 'Svc_Ticket_Subject', TICKET_SUBJECTS, null);
      },
    },
  },
});
