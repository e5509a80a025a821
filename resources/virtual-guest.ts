import * as pulumi from '@pulumi/pulumi';
import { delegatingProvider } from '../provider/dynamic/delegate';
import { computed } from './computed';
import { assertApiKeyIsSecret } from './secret-config';

const provider = delegatingProvider('VirtualGuest');

const OUTPUTS = [
  'hostname',
  'domain',
  'startCpus',
  'maxMemory',
  'hourlyBillingFlag',
  'localDiskFlag',
  'operatingSystemReferenceCode',
  'datacenter',
  'networkSpeed',
  'disks',
  'privateNetworkOnly',
  'tags',
  'notes',
  'userData',
  'sshKeyIds',
  'guestId',
  'fullyQualifiedDomainName',
  'primaryIpAddress',
  'primaryBackendIpAddress',
  'provisionDate',
  'powerState',
  'globalIdentifier',
  'status',
  'estimatedHourlyCost',
  'estimatedMonthlyCost',
];

export interface VirtualGuestArgs {
  /** Host name; defaults to the resource name plus a suffix that is stable for this stack. */
  hostname?: pulumi.Input<string>;
  domain: pulumi.Input<string>;
  /** CPU count; a change upgrades the guest in place (it reboots). */
  startCpus: pulumi.Input<number>;
  /** Memory in MB, one of the sizes the account is offered; a change upgrades in place (it reboots). */
  maxMemory: pulumi.Input<number>;
  /** Hourly billing (default true); false orders a monthly guest. Changing it replaces the guest. */
  hourlyBillingFlag?: pulumi.Input<boolean>;
  /** Local disk (default true) or SAN. */
  localDiskFlag?: pulumi.Input<boolean>;
  /** e.g. UBUNTU_LATEST, DEBIAN_12_64. */
  operatingSystemReferenceCode: pulumi.Input<string>;
  /** e.g. dal10. */
  datacenter: pulumi.Input<string>;
  /** Network port speed in Mbps; a change upgrades in place. */
  networkSpeed?: pulumi.Input<number>;
  /**
   * Disk sizes in GB, the boot disk first, then up to four data disks (default: the API's 25 GB
   * boot disk). Disks grow and are added in place; shrinking or removing one is refused in check.
   */
  disks?: pulumi.Input<pulumi.Input<number>[]>;
  privateNetworkOnly?: pulumi.Input<boolean>;
  /**
   * Tags, compared the way the API stores them: trimmed, lower-cased, each once, in sorted order
   * (`['Web', ' db ']` is stored and shown as `['db', 'web']`, and is no change on the next run).
   */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  notes?: pulumi.Input<string>;
  /**
   * User data for cloud-init, sent and compared exactly as given (never decoded or re-encoded).
   * A change replaces the guest: cloud-init runs it only on the first boot.
   */
  userData?: pulumi.Input<string>;
  /** Ids of SSH keys to install (`SshKey.keyId` or its `id`); a change replaces the guest. */
  sshKeyIds?: pulumi.Input<pulumi.Input<number | string>[]>;
  /** Wait until the guest is provisioned and has its addresses (default true). */
  waitForReady?: pulumi.Input<boolean>;
  /** How long to wait for readiness, in minutes (default 30; fractions allowed). */
  readyTimeoutMinutes?: pulumi.Input<number>;
  /** Take over an existing guest by id instead of ordering one (Pulumi's `import` does not work for dynamic resources). */
  adoptId?: pulumi.Input<string | number>;
}

const TYPE = 'pulumi-nodejs:dynamic/svc:VirtualGuest';

/**
 * `<organization>/<URN>` of the resource, the seed of its creation token. Computed from the
 * parent's URN through a plain promise: an Output of the parent's URN would make this resource
 * depend on its parent, and depending on a component means waiting for all of its children.
 */
function provenance(name: string, parent?: pulumi.Resource): pulumi.Output<string> {
  const urn = pulumi.createUrn(name, TYPE, parent);
  const known = new Promise<string>((resolve) => urn.apply(resolve));
  return pulumi.output(known).apply((text) => `${pulumi.getOrganization()}/${text}`);
}

/**
 * A cloud compute instance (`Svc_Virtual_Guest`), billed while it exists. Created once through
 * `Virtual_Guest.createObject`, then hostname, domain, notes and tags change in place, CPUs,
 * memory, port speed and disks through one upgrade order (same guest, id and addresses); any
 * other change to what was ordered replaces it. `pulumi preview` prints one BILLING line per
 * change with the old and new cost.
 */
export class VirtualGuest extends pulumi.dynamic.Resource {
  declare readonly hostname: pulumi.Output<string>;
  declare readonly domain: pulumi.Output<string>;
  declare readonly startCpus: pulumi.Output<number>;
  declare readonly maxMemory: pulumi.Output<number>;
  declare readonly hourlyBillingFlag: pulumi.Output<boolean>;
  declare readonly localDiskFlag: pulumi.Output<boolean>;
  declare readonly operatingSystemReferenceCode: pulumi.Output<string>;
  declare readonly datacenter: pulumi.Output<string>;
  declare readonly networkSpeed: pulumi.Output<number | undefined>;
  declare readonly disks: pulumi.Output<number[] | undefined>;
  declare readonly privateNetworkOnly: pulumi.Output<boolean>;
  declare readonly tags: pulumi.Output<string[]>;
  declare readonly notes: pulumi.Output<string | undefined>;
  declare readonly userData: pulumi.Output<string | undefined>;
  /** As numbers, each once, in ascending order. */
  declare readonly sshKeyIds: pulumi.Output<number[]>;
  /** The numeric id (the resource id is the same number as a string). */
  declare readonly guestId: pulumi.Output<number>;
  declare readonly fullyQualifiedDomainName: pulumi.Output<string>;
  declare readonly primaryIpAddress: pulumi.Output<string | null>;
  declare readonly primaryBackendIpAddress: pulumi.Output<string | null>;
  declare readonly provisionDate: pulumi.Output<string | null>;
  declare readonly powerState: pulumi.Output<string | null>;
  declare readonly globalIdentifier: pulumi.Output<string | null>;
  declare readonly status: pulumi.Output<string>;
  /** What the guest is billed (its billing item; before the order, the API's price of the order); for monthly guests the monthly fee / 730. */
  declare readonly estimatedHourlyCost: pulumi.Output<number>;
  declare readonly estimatedMonthlyCost: pulumi.Output<number>;

  constructor(name: string, args: VirtualGuestArgs, opts?: pulumi.CustomResourceOptions) {
    assertApiKeyIsSecret();
    super(
      provider,
      name,
      {
        // Every output must be a key of the props to become an Output property, given or not.
        ...computed(OUTPUTS),
        ...args,
        resourceName: name,
        identity: `${pulumi.getProject()}/${pulumi.getStack()}/${name}`,
        provenance: provenance(name, opts?.parent),
      },
      opts,
      'svc',
      'VirtualGuest',
    );
  }
}
