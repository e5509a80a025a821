/** Tickets and their updates (the conversation), with the subjects and statuses the API offers. */
import { table, type RecordsOf } from '../../store';

export interface TicketRec {
  id: number;
  accountId: number;
  title: string;
  subjectId: number;
  assignedUserId: number;
  priority?: number;
  statusId: number;
  createDate: number;
  modifyDate: number;
  attachedHardwareIds: number[];
  attachedGuestIds: number[];
}

export interface TicketUpdateRec {
  id: number;
  accountId: number;
  ticketId: number;
  entry: string;
  createDate: number;
  editorType: 'USER' | 'EMPLOYEE' | 'AUTO';
  editorId?: number;
}

export const tables = {
  tickets: table<TicketRec>(500001, ['accountId']),
  ticketUpdates: table<TicketUpdateRec>(510001, ['ticketId']),
};

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

export const TICKET_SUBJECTS: readonly { id: number; name: string }[] = [
  { id: 1001, name: 'Accounting Request' },
  { id: 1002, name: 'Sales Request' },
  { id: 1003, name: 'Reboots and Console Access' },
  { id: 1004, name: 'DNS Request' },
  { id: 1005, name: 'Hardware Issue' },
];

export const TICKET_STATUSES: Record<number, string> = { 1001: 'Open', 1002: 'Closed' };
export const TICKET_OPEN = 1001;
export const TICKET_CLOSED = 1002;
