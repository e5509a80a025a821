import type { ArgsOf } from '../provider/framework/fields';
import { TICKET_UPDATE_FIELDS } from '../provider/kinds/ticket-update/fields';
import { resourceClass, type ResourceClass } from './resource-class';

/** The arguments of a TicketUpdate: see its field table (provider/kinds/ticket-update/fields.ts). */
export type TicketUpdateArgs = ArgsOf<typeof TICKET_UPDATE_FIELDS>;

/** An update posted to a support ticket (`Ticket.addUpdate`). Destroying it only forgets it. */
export const TicketUpdate: ResourceClass<typeof TICKET_UPDATE_FIELDS> = resourceClass(
  'TicketUpdate',
  TICKET_UPDATE_FIELDS,
);
export type TicketUpdate = InstanceType<typeof TicketUpdate>;
