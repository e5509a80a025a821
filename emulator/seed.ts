/**
 * Deterministic starting data. Both seeds create the same accounts and users (fixed ids and
 * derived API keys, so credentials are known before start):
 *   - `SVC_DEMO` (Svc Demo Company): user `demo` (API key + password) and `demo.ops` (password
 *     plus a security question, for getPortalLoginToken);
 *   - `SVC_OTHER` (Other Corp): user `other`, for account-isolation tests.
 * `demo` adds objects: on the demo account tickets with updates and attached hardware, the DNS
 * zone example.com with records, two hardware servers and IP addresses, and NO virtual guests
 * (tests count them); the other account holds two provisioned sample guests in the domain
 * legacy.example.net, a ticket and the zone other.example.org. `empty` adds no objects.
 */
import { createHash } from 'node:crypto';
import { DATACENTERS } from './catalog';
import { parseFilterDate } from './dates';
import {
  derivedKey,
  newAccountOps,
  newUserOps,
  type AccountCredentials,
} from './services/account/model';
import type { DnsRecordRec } from './services/dns/model';
import type { HardwareRec } from './services/hardware/model';
import {
  TICKET_CLOSED,
  TICKET_OPEN,
  type TicketRec,
  type TicketUpdateRec,
} from './services/ticket/model';
import { checkGuestTemplate } from './services/virtual-guest/template';
import { buildGuest } from './services/virtual-guest/model';
import type { Store, WriteOp } from './store';

export type SeedName = 'demo' | 'empty';

export interface SeededAccounts {
  /** The demo account's main user (API key and password, no security question). */
  demo: AccountCredentials;
  /** A second user of the demo account with a password and a security question. */
  demoOps: AccountCredentials;
  /** A different account, for isolation tests. */
  other: AccountCredentials;
}

const at = (text: string) => parseFilterDate(text)!;
const SEED_TIME = at('2025-01-15T09:00:00-06:00');

const DEMO_USER = {
  username: 'demo',
  apiKey: derivedKey('demo'),
  password: 'demo-password',
  firstName: 'Dana',
  lastName: 'Demo',
};
const OPS_USER = {
  username: 'demo.ops',
  apiKey: derivedKey('demo.ops'),
  password: 'ops-password',
  firstName: 'Omar',
  lastName: 'Ops',
  securityQuestions: [{ id: 1, question: 'What was the name of your first pet?', answer: 'rex' }],
};
const OTHER_USER = {
  username: 'other',
  apiKey: derivedKey('other'),
  password: 'other-password',
  firstName: 'Olga',
  lastName: 'Other',
};

/** The seeded credentials (the same for every seed and every run). */
export function seededAccounts(): SeededAccounts {
  const q = OPS_USER.securityQuestions[0];
  return {
    demo: { accountId: 318001, companyName: 'Svc Demo Company', userId: 7001, ...pick(DEMO_USER) },
    demoOps: {
      accountId: 318001,
      companyName: 'Svc Demo Company',
      userId: 7002,
      ...pick(OPS_USER),
      securityQuestion: { ...q },
    },
    other: { accountId: 318002, companyName: 'Other Corp', userId: 7003, ...pick(OTHER_USER) },
  };
}

const pick = (u: { username: string; apiKey: string; password: string }) => ({
  username: u.username,
  apiKey: u.apiKey,
  password: u.password,
});

/** Writes the seed into an empty store. */
export async function applySeed(store: Store, seed: SeedName): Promise<void> {
  const demo = newAccountOps(
    store,
    { companyName: 'Svc Demo Company', user: DEMO_USER },
    SEED_TIME,
  );
  const ops = newUserOps(store, demo.account.id, OPS_USER, SEED_TIME, false);
  const other = newAccountOps(
    store,
    { companyName: 'Other Corp', city: 'Austin', user: OTHER_USER },
    SEED_TIME,
  );
  const writes: WriteOp[] = [...demo.ops, ...ops.ops, ...other.ops];
  const expected = seededAccounts();
  if (
    demo.account.id !== expected.demo.accountId ||
    other.credentials.userId !== expected.other.userId
  ) {
    throw new Error('svc-emulator: the seed must be applied to an empty store');
  }
  if (seed === 'demo') {
    writes.push(...demoObjects(store, demo.account.id, demo.credentials.userId));
    writes.push(...otherObjects(store, other.account.id, other.credentials.userId));
  }
  await store.write(writes);
}

const uuidFrom = (text: string) => {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

function hardware(
  store: Store,
  accountId: number,
  hostname: string,
  dc: string,
  ips: [string, string],
  cores: number,
  gb: number,
): HardwareRec {
  return {
    id: store.nextId('hardware'),
    accountId,
    globalIdentifier: uuidFrom(`hw:${hostname}`),
    hostname,
    domain: 'example.com',
    datacenterId: DATACENTERS.find((d) => d.name === dc)!.id,
    processorPhysicalCoreAmount: cores,
    memoryCapacity: gb,
    primaryIpAddress: ips[0],
    primaryBackendIpAddress: ips[1],
    provisionDate: at('2024-06-03T11:20:00-06:00'),
    notes: `${hostname} (seeded bare metal server)`,
  };
}

function ticket(
  store: Store,
  accountId: number,
  userId: number,
  spec: {
    title: string;
    subjectId: number;
    statusId: number;
    created: string;
    hardwareIds?: number[];
    updates: [string, 'USER' | 'EMPLOYEE', string][];
  },
): WriteOp[] {
  const t: TicketRec = {
    id: store.nextId('tickets'),
    accountId,
    title: spec.title,
    subjectId: spec.subjectId,
    assignedUserId: userId,
    statusId: spec.statusId,
    createDate: at(spec.created),
    modifyDate: at(spec.updates[spec.updates.length - 1][2]),
    attachedHardwareIds: spec.hardwareIds ?? [],
    attachedGuestIds: [],
  };
  const updates = spec.updates.map(([entry, editorType, created]): TicketUpdateRec => ({
    id: store.nextId('ticketUpdates'),
    accountId,
    ticketId: t.id,
    entry,
    createDate: at(created),
    editorType,
    editorId: editorType === 'USER' ? userId : undefined,
  }));
  return [
    { put: 'tickets', record: t },
    ...updates.map((record) => ({ put: 'ticketUpdates' as const, record })),
  ];
}

function zone(
  store: Store,
  accountId: number,
  name: string,
  records: [string, string, string, number, number?][],
): WriteOp[] {
  const domain = {
    id: store.nextId('dnsDomains'),
    accountId,
    name,
    serial: 2025011500,
    updateDate: SEED_TIME,
  };
  const rows = records.map(([host, type, data, ttl, mxPriority]): DnsRecordRec => ({
    id: store.nextId('dnsRecords'),
    accountId,
    domainId: domain.id,
    host,
    type,
    data,
    ttl,
    mxPriority,
    createDate: SEED_TIME,
  }));
  return [
    { put: 'dnsDomains', record: domain },
    ...rows.map((record) => ({ put: 'dnsRecords' as const, record })),
  ];
}

function demoObjects(store: Store, accountId: number, userId: number): WriteOp[] {
  const servers = demoServers(store, accountId);
  return [
    ...servers.ops,
    ...demoTickets(store, accountId, userId, servers),
    ...zone(store, accountId, 'example.com', [
      ['@', 'a', '192.0.2.10', 86400],
      ['www', 'cname', 'example.com.', 3600],
      ['mail', 'a', '192.0.2.20', 86400],
      ['@', 'mx', 'mail.example.com.', 86400, 10],
      ['@', 'txt', 'v=spf1 mx -all', 3600],
    ]),
  ];
}

/** Two bare metal servers with their addresses, and the web front end's address. */
function demoServers(store: Store, accountId: number) {
  const db = hardware(store, accountId, 'db01', 'dal10', ['192.0.2.21', '10.10.0.21'], 8, 64);
  const backup = hardware(
    store,
    accountId,
    'backup01',
    'wdc07',
    ['192.0.2.22', '10.20.0.22'],
    4,
    32,
  );
  const ips: WriteOp[] = [
    ['192.0.2.21', true, db.id],
    ['10.10.0.21', false, db.id],
    ['192.0.2.22', true, backup.id],
    ['10.20.0.22', false, backup.id],
    ['192.0.2.10', true, undefined],
  ].map(([ipAddress, isPublic, hardwareId]) => ({
    put: 'ipAddresses',
    record: {
      id: store.nextId('ipAddresses'),
      accountId,
      ipAddress: ipAddress as string,
      isPublic: isPublic as boolean,
      subnetId: isPublic ? 1_800_001 : 1_800_002,
      hardwareId: hardwareId as number | undefined,
      note: hardwareId === undefined ? 'web front end (example.com)' : undefined,
    },
  }));
  const ops: WriteOp[] = [
    { put: 'hardware', record: db },
    { put: 'hardware', record: backup },
    ...ips,
  ];
  return { db, backup, ops };
}

function demoTickets(
  store: Store,
  accountId: number,
  userId: number,
  { db, backup }: { db: HardwareRec; backup: HardwareRec },
): WriteOp[] {
  return [
    ...ticket(store, accountId, userId, {
      title: 'Disk warning on db01',
      subjectId: 1005,
      statusId: TICKET_OPEN,
      created: '2026-01-05T09:30:00-06:00',
      hardwareIds: [db.id],
      updates: [
        [
          'SMART reports reallocated sectors on disk 2 of db01. Please check.',
          'USER',
          '2026-01-05T09:30:00-06:00',
        ],
        [
          'A technician has been scheduled to replace the drive.',
          'EMPLOYEE',
          '2026-01-05T11:02:00-06:00',
        ],
      ],
    }),
    ...ticket(store, accountId, userId, {
      title: 'Reverse DNS for 192.0.2.10',
      subjectId: 1004,
      statusId: TICKET_CLOSED,
      created: '2026-02-10T14:00:00-06:00',
      updates: [
        [
          'Please set the PTR record of 192.0.2.10 to www.example.com.',
          'USER',
          '2026-02-10T14:00:00-06:00',
        ],
        [
          'Done. The change can take up to an hour to propagate.',
          'EMPLOYEE',
          '2026-02-10T15:45:00-06:00',
        ],
      ],
    }),
    ...ticket(store, accountId, userId, {
      title: 'Question about the February invoice',
      subjectId: 1001,
      statusId: TICKET_OPEN,
      created: '2026-03-01T08:15:00-06:00',
      hardwareIds: [backup.id],
      updates: [
        ['Why does the invoice show two backup servers?', 'USER', '2026-03-01T08:15:00-06:00'],
      ],
    }),
  ];
}

function otherObjects(store: Store, accountId: number, userId: number): WriteOp[] {
  const writes: WriteOp[] = [];
  const created = at('2025-11-02T10:00:00-06:00');
  const tagCache = new Map();
  for (const [hostname, dc, cpus, memory] of [
    ['legacy-web1', 'lon06', 2, 4096],
    ['legacy-db1', 'fra02', 4, 16384],
  ] as const) {
    const order = checkGuestTemplate({
      hostname,
      domain: 'legacy.example.net',
      startCpus: cpus,
      maxMemory: memory,
      hourlyBillingFlag: false,
      localDiskFlag: true,
      operatingSystemReferenceCode: 'DEBIAN_12_64',
      datacenter: { name: dc },
      tagReferences: [{ tag: { name: 'legacy' } }],
      notes: 'Seeded sample guest (other account)',
    });
    const { ops } = buildGuest(store, accountId, order, {
      now: created,
      readyAt: created + 600_000,
      globalIdentifier: uuidFrom(`guest:${hostname}`),
      tagCache,
    });
    writes.push(...ops);
  }
  writes.push(
    ...ticket(store, accountId, userId, {
      title: 'Other account ticket',
      subjectId: 1002,
      statusId: TICKET_OPEN,
      created: '2026-01-20T10:00:00-06:00',
      updates: [['Please send a quote for two more servers.', 'USER', '2026-01-20T10:00:00-06:00']],
    }),
    ...zone(store, accountId, 'other.example.org', [['@', 'a', '198.51.100.7', 3600]]),
  );
  return writes;
}
