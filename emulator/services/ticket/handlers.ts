/** Svc_Ticket: opening standard tickets, adding updates, attaching hardware and guests. */
import { invalidValue, propertyNotValid, publicFault } from '../../errors';
import { typeDef } from '../../schema';
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
} from '../context';
import { serviceFolder, type MethodDef } from '../service';
import {
  TICKET_OPEN,
  TICKET_SUBJECTS,
  tables,
  type TicketRec,
  type TicketUpdateRec,
} from './model';
import './types';

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

/** The template's properties a new ticket takes; faults name the first bad one. */
function checkTicketTemplate(ctx: AuthedContext, template: Record<string, unknown>) {
  const ticketType = typeDef('Svc_Ticket');
  for (const key of Object.keys(template)) {
    if (!TEMPLATE_EXTRAS.has(key) && !ticketType.locals.has(key) && !ticketType.relations.has(key))
      throw propertyNotValid(key, 'Svc_Ticket');
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
  return {
    title: template.title,
    subjectId,
    assignedUserId: checkAssignedUser(ctx, template.assignedUserId),
    priority: checkPriority(template.priority),
  };
}

function checkAssignedUser(ctx: AuthedContext, value: unknown): number {
  if (value === undefined || value === null) return ctx.user.id;
  const id = Number(value);
  const user = ctx.store.get('users', id);
  if (!user || user.accountId !== ctx.account.id) {
    throw publicFault(
      `Invalid value provided for 'assignedUserId': no user ${String(value)} in this account.`,
    );
  }
  return id;
}

function checkPriority(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const priority = Number(value);
  if (!Number.isInteger(priority) || priority < 0 || priority > 4) {
    throw invalidValue(`Invalid value provided for 'priority': ${String(value)}. Expected 0 to 4.`);
  }
  return priority;
}

const createStandardTicket: MethodDef = {
  handler: async (ctx) => {
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
    const checked = checkTicketTemplate(ctx, structArg(ctx, 0, 'templateObject'));
    const body = checkEntry(ctx.args[1], 'contents');
    const ticket: TicketRec = {
      id: ctx.store.nextId('tickets'),
      accountId: ctx.account.id,
      ...checked,
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
};

export const ticket = serviceFolder({
  tables,
  services: {
    Ticket: {
      load: loadTicket,
      methods: {
        createStandardTicket,
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
    },
    Ticket_Subject: {
      methods: {
        getAllObjects: {
          access: 'optional',
          handler: (ctx) => {
            expectArgs(ctx, []);
            return list(ctx, 'Svc_Ticket_Subject', TICKET_SUBJECTS, null);
          },
        },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    ticket: typeof ticket;
  }
}
