import * as pulumi from '@pulumi/pulumi';
import { delegatingProvider } from '../provider/dynamic/delegate';
import { computed } from './computed';
import { assertApiKeyIsSecret } from './secret-config';

const provider = delegatingProvider('DnsRecord');

export interface DnsRecordArgs {
  /** The zone by id, or by name with `zoneName` (exactly one of the two). */
  zoneId?: pulumi.Input<number>;
  zoneName?: pulumi.Input<string>;
  /** Relative host name, `@` for the zone apex. */
  host: pulumi.Input<string>;
  /** A, AAAA, CNAME, MX, TXT, NS, PTR, SRV or SPF. */
  type: pulumi.Input<string>;
  data: pulumi.Input<string>;
  /** Seconds, default 900. */
  ttl?: pulumi.Input<number>;
  mxPriority?: pulumi.Input<number>;
}

/** A resource record in a DNS zone (`Svc_Dns_Domain_ResourceRecord`). */
export class DnsRecord extends pulumi.dynamic.Resource {
  declare readonly host: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly data: pulumi.Output<string>;
  declare readonly ttl: pulumi.Output<number>;
  declare readonly recordId: pulumi.Output<number>;
  declare readonly resolvedZoneId: pulumi.Output<number>;

  constructor(name: string, args: DnsRecordArgs, opts?: pulumi.CustomResourceOptions) {
    assertApiKeyIsSecret();
    super(
      provider,
      name,
      { ...computed(['host', 'type', 'data', 'ttl', 'recordId', 'resolvedZoneId']), ...args },
      opts,
      'svc',
      'DnsRecord',
    );
  }
}
