/** Svc_Ticket and Svc_Ticket_Update. */
import { formatApiDate } from '../../dates';
import { defineType, definePlainType, sameAccount } from '../../schema';
import { TICKET_STATUSES, TICKET_SUBJECTS, type TicketRec, type TicketUpdateRec } from './model';

definePlainType('Svc_Ticket_Status', ['id', 'name']);
definePlainType('Svc_Ticket_Subject', ['id', 'name']);

defineType<TicketRec>('Svc_Ticket', {
  locals: {
    id: (t) => t.id,
    accountId: (t) => t.accountId,
    title: (t) => t.title,
    subjectId: (t) => t.subjectId,
    assignedUserId: (t) => t.assignedUserId,
    priority: (t) => t.priority,
    statusId: (t) => t.statusId,
    serviceProviderResourceId: (t) => `CS${t.id}`,
    createDate: (t) => formatApiDate(t.createDate),
    modifyDate: (t) => formatApiDate(t.modifyDate),
    lastEditDate: (t) => formatApiDate(t.modifyDate),
    lastEditType: () => 'USER',
    totalUpdateCount: (t, ctx) => ctx.store.countBy('ticketUpdates', 'ticketId', t.id),
  },
  relations: {
    updates: {
      type: 'Svc_Ticket_Update',
      many: true,
      get: (t, ctx) => ctx.store.by('ticketUpdates', 'ticketId', t.id),
    },
    assignedUser: {
      type: 'Svc_User_Customer',
      get: (t, ctx) => sameAccount(ctx.store.get('users', t.assignedUserId), ctx),
    },
    attachedHardware: {
      type: 'Svc_Hardware',
      many: true,
      get: (t, ctx) =>
        t.attachedHardwareIds
          .map((id) => sameAccount(ctx.store.get('hardware', id), ctx))
          .filter(Boolean),
    },
    attachedVirtualGuests: {
      type: 'Svc_Virtual_Guest',
      many: true,
      get: (t, ctx) =>
        t.attachedGuestIds
          .map((id) => sameAccount(ctx.store.get('guests', id), ctx))
          .filter(Boolean),
    },
    firstUpdate: {
      type: 'Svc_Ticket_Update',
      get: (t, ctx) => ctx.store.by('ticketUpdates', 'ticketId', t.id)[0],
    },
    lastUpdate: {
      type: 'Svc_Ticket_Update',
      get: (t, ctx) => ctx.store.by('ticketUpdates', 'ticketId', t.id).at(-1),
    },
    status: {
      type: 'Svc_Ticket_Status',
      get: (t) => ({ id: t.statusId, name: TICKET_STATUSES[t.statusId] }),
    },
    subject: {
      type: 'Svc_Ticket_Subject',
      get: (t) => TICKET_SUBJECTS.find((s) => s.id === t.subjectId),
    },
  },
  onDemand: { updateCount: (t, ctx) => ctx.store.countBy('ticketUpdates', 'ticketId', t.id) },
});

defineType<TicketUpdateRec>('Svc_Ticket_Update', {
  locals: {
    id: (u) => u.id,
    ticketId: (u) => u.ticketId,
    entry: (u) => u.entry,
    createDate: (u) => formatApiDate(u.createDate),
    editorType: (u) => u.editorType,
    editorId: (u) => u.editorId,
  },
  relations: {
    ticket: {
      type: 'Svc_Ticket',
      get: (u, ctx) => sameAccount(ctx.store.get('tickets', u.ticketId), ctx),
    },
    // The API declares the abstract Svc_User_Interface; customers' entries carry the customer.
    editor: {
      type: 'Svc_User_Customer',
      get: (u, ctx) =>
        u.editorType === 'USER' && u.editorId
          ? sameAccount(ctx.store.get('users', u.editorId), ctx)
          : undefined,
    },
  },
});
