import * as pulumi from '@pulumi/pulumi';
import { delegatingProvider } from '../provider/dynamic/delegate';
import { computed } from './computed';
import { assertApiKeyIsSecret } from './secret-config';

const provider = delegatingProvider('TicketUpdate');

export interface TicketUpdateArgs {
  ticketId: pulumi.Input<number>;
  /** The text of the update. Changing it adds a new update; updates are never deleted. */
  entry: pulumi.Input<string>;
}

/** An update posted to a support ticket (`Ticket.addUpdate`). Destroying it only forgets it. */
export class TicketUpdate extends pulumi.dynamic.Resource {
  declare readonly ticketId: pulumi.Output<number>;
  declare readonly entry: pulumi.Output<string>;
  declare readonly updateId: pulumi.Output<number>;
  declare readonly createDate: pulumi.Output<string | null>;

  constructor(name: string, args: TicketUpdateArgs, opts?: pulumi.CustomResourceOptions) {
    assertApiKeyIsSecret();
    super(
      provider,
      name,
      { ...computed(['updateId', 'createDate']), ...args },
      opts,
      'svc',
      'TicketUpdate',
    );
  }
}
