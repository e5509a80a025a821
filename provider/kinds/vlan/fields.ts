import { MARKED_NOTE_MAX, declaredNote } from '../../framework/creation-token';
import { types, readFrom, UNSET, type Fields } from '../../framework/fields';
import { DATACENTER_NAME, TAKEOVER_FIELDS, TOKEN_FIELDS, rules } from '../../framework/field-rules';
import { NETWORK_SPACES, type Vlan } from './api';

/** Every field of a Vlan, once (see framework/fields.ts). */

const onVlan = readFrom<Vlan>();

/** What an order fixes for good: a change orders a new VLAN. */
export const REPLACING = ['datacenter', 'networkSpace', 'routerHostname'] as const;

export const VLAN_FIELDS = {
  ...TOKEN_FIELDS,
  ...TAKEOVER_FIELDS,
  /** Datacenter short name, e.g. `dal10`; a change orders a new VLAN. */
  datacenter: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, ...DATACENTER_NAME }),
    change: 'replace',
    read: onVlan('primaryRouter.datacenter.name', (v) => v.primaryRouter?.datacenter?.name),
  },
  /** `PUBLIC` (behind a frontend router) or `PRIVATE` (a backend router); a change orders a new VLAN. */
  networkSpace: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.oneOf(NETWORK_SPACES, 'a network space'),
    oneOf: {
      name: 'VlanNetworkSpace',
      values: NETWORK_SPACES,
      meanings: {
        PUBLIC: 'A public VLAN, behind the datacenter’s frontend router.',
        PRIVATE: 'A private VLAN, behind the datacenter’s backend router.',
      },
    },
    change: 'replace',
    read: onVlan('networkSpace', (v) => v.networkSpace),
  },
  /**
   * The router the VLAN is ordered behind, e.g. `fcr01a.dal10` (public) or `bcr01a.dal10`
   * (private), one of the datacenter's pods (`Network_Pod`); left out, the API chooses. A change
   * orders a new VLAN.
   */
  routerHostname: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.text({ maxLength: 100 }),
    change: 'replace',
    read: onVlan(
      'primaryRouter.fullyQualifiedDomainName',
      (v) => v.primaryRouter?.fullyQualifiedDomainName,
      {
        unsetFollowsApi: true,
      },
    ),
  },
  /** The VLAN's name (at most 20 characters). */
  name: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: 20 }),
    change: 'update',
    how: '`Network_Vlan.editObject`',
    read: onVlan('name', (v) => v.name || UNSET),
  },
  /** Free text kept with the VLAN (its `note`). */
  notes: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: MARKED_NOTE_MAX }),
    change: 'update',
    how: '`Network_Vlan.editObject`',
    // Its last line is the handed mark (framework/handed-mark.ts), never read back.
    read: onVlan('note', (v) => declaredNote(v.note) || UNSET),
  },
  /**
   * On delete, cancel the VLAN at once instead of at its billing anniversary (a VLAN is billed by
   * the month: until then it stays, billed).
   */
  cancelImmediately: {
    type: types.boolean,
    input: 'optional',
    default: false,
    rule: rules.flag(),
    change: 'local',
  },
  /** What the VLAN costs an hour (check prices the order with verifyOrder). */
  estimatedHourlyCost: { type: types.number, output: true, fromCheck: true },
  /** What the VLAN costs a month. */
  estimatedMonthlyCost: { type: types.number, output: true, fromCheck: true },
  /** The numeric id, for a guest's VLAN (the resource id is the same number). */
  vlanId: { type: types.integer, output: true, read: onVlan('id', (v) => v.id) },
  /** The VLAN number on its router. */
  vlanNumber: {
    type: types.integer,
    output: true,
    read: onVlan('vlanNumber', (v) => v.vlanNumber),
  },
  /** `<datacenter>.<router>.<number>`, as the API names it. */
  fullyQualifiedName: {
    type: types.string,
    output: true,
    read: onVlan('fullyQualifiedName', (v) => v.fullyQualifiedName),
  },
  /** The billing item a cancel goes through. */
  billingItemId: {
    type: types.integer,
    output: true,
    read: onVlan('billingItem.id', (v) => v.billingItem?.id),
  },
} satisfies Fields;
