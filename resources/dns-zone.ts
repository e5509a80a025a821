import * as pulumi from '@pulumi/pulumi';
import { delegatingProvider } from '../provider/dynamic/delegate';
import { computed } from './computed';

const provider = delegatingProvider('DnsZone');

/** A record the zone owns: the fields and rules of `DnsRecord`, without the zone. */
export interface DnsZoneRecordArgs {
  /** Relative host name, `@` for the zone apex. */
  host: pulumi.Input<string>;
  /** A, AAAA, CNAME, MX, TXT, NS, PTR, SRV or SPF. */
  type: pulumi.Input<string>;
  data: pulumi.Input<string>;
  /** Seconds, default 900. */
  ttl?: pulumi.Input<number>;
  mxPriority?: pulumi.Input<number>;
}

export interface DnsZoneArgs {
  /** The zone's domain name, e.g. `example.com`. Changing it replaces the zone. */
  name: pulumi.Input<string>;
  /** Records created with the zone and kept as declared; changes are made in place. */
  records?: pulumi.Input<pulumi.Input<DnsZoneRecordArgs>[]>;
  /**
   * Let destroying the zone delete records this stack does not own (default false: such a
   * destroy is refused and lists them). Takes effect once in the state: `pulumi up`, then destroy.
   */
  forceDelete?: pulumi.Input<boolean>;
  /** Take over the account's existing zone with this id (without it, an existing zone of that name fails in `check`). */
  adoptId?: pulumi.Input<string | number>;
}

/**
 * A DNS zone (`Svc_Dns_Domain`). Add records with `records` or with
 * `new DnsRecord(..., { zoneId: zone.zoneId, ... })`.
 */
export class DnsZone extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  /** The numeric id, for `DnsRecord.zoneId` (the resource id is the same number as a string). */
  declare readonly zoneId: pulumi.Output<number>;
  declare readonly serial: pulumi.Output<number | null>;
  declare readonly records: pulumi.Output<DnsZoneRecordOutput[]>;
  /** Ids of the records in `records`, in the same order. */
  declare readonly recordIds: pulumi.Output<number[]>;
  declare readonly forceDelete: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: DnsZoneArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        ...computed(['zoneId', 'serial', 'records', 'recordIds', 'forceDelete']),
        ...args,
      },
      opts,
      'svc',
      'DnsZone',
    );
  }
}

export interface DnsZoneRecordOutput {
  host: string;
  type: string;
  data: string;
  ttl: number;
  mxPriority?: number;
}
