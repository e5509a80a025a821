import type { Client } from '../client';
import { nestedFilter, queryFilterDate } from '../client/filter';
import type { Ticket, TicketUpdateRecord } from './types';

export const TICKET_MASK =
  'id,title,createDate,status.name,updates[id,entry,createDate],assignedUser[id,username,firstName,lastName],' +
  'attachedHardware[id,hostname,datacenter.name]';

export interface ListTicketsOptions {
  /** Only tickets whose `createDate` lies in [start, end]. */
  createdBetween?: { start: Date; end: Date };
  mask?: string;
  limit?: number;
}

/** Support tickets and their updates. */
export class TicketManager {
  constructor(private readonly client: Client) {}

  async listTickets(options: ListTicketsOptions = {}): Promise<Ticket[]> {
    const filter = options.createdBetween
      ? nestedFilter(
          'tickets.createDate',
          queryFilterDate(options.createdBetween.start, options.createdBetween.end),
        )
      : undefined;
    return (await this.client.call('Account', 'getTickets', {
      mask: options.mask ?? 'id,title,createDate,status.name',
      ...(filter ? { filter } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
    })) as Ticket[];
  }

  async getTicket(id: number, mask: string = TICKET_MASK): Promise<Ticket> {
    return (await this.client.call('Ticket', 'getObject', { id, mask })) as Ticket;
  }

  async createTicket(title: string, body: string, subjectId = 1001): Promise<Ticket> {
    return (await this.client.call('Ticket', 'createStandardTicket', {
      args: [{ title, subjectId }, body],
    })) as Ticket;
  }

  /** Adds an update to the ticket (not idempotent: never retried by the client). */
  async addUpdate(ticketId: number, entry: string): Promise<TicketUpdateRecord> {
    return (await this.client.call('Ticket', 'addUpdate', {
      id: ticketId,
      args: [{ entry }],
    })) as TicketUpdateRecord;
  }

  async getUpdates(ticketId: number): Promise<TicketUpdateRecord[]> {
    return (await this.client.call('Ticket', 'getUpdates', {
      id: ticketId,
      mask: 'id,entry,createDate',
    })) as TicketUpdateRecord[];
  }
}
