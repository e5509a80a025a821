import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { readMask } from '../../provider/framework/fields';
import { GUEST_FIELDS } from '../../provider/kinds/virtual-guest/fields';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import {
  DETAIL_MASK,
  DnsManager,
  RECORD_MASK,
  SSH_KEY_MASK,
  SshKeyManager,
  VirtualGuestManager,
} from '../../provider/managers';
import type { RuntimeProvider } from '../../provider/framework/runtime-provider';
import { DNS_RECORD_FIELDS } from '../../provider/kinds/dns-record/fields';
import { dnsRecordProvider } from '../../provider/kinds/dns-record/provider';
import { dnsZoneProvider } from '../../provider/kinds/dns-zone/provider';
import { SSH_KEY_FIELDS } from '../../provider/kinds/ssh-key/fields';
import { sshKeyProvider } from '../../provider/kinds/ssh-key/provider';
import { ticketUpdateProvider } from '../../provider/kinds/ticket-update/provider';
import { freshEd25519 } from '../support/ssh-keys';
import { providerEnv, type Emulator } from '../support/provider-env';

type Bag = Record<string, unknown>;

/** `a,b[c,d[e]]` as the dotted paths `a`, `b.c`, `b.d.e`. */
function maskPaths(mask: string, prefix = ''): string[] {
  const paths: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= mask.length; i++) {
    const char = mask[i];
    if (char === '[') depth++;
    else if (char === ']') depth--;
    else if ((char === ',' || i === mask.length) && depth === 0) {
      const part = mask.slice(start, i).trim();
      const open = part.indexOf('[');
      if (open < 0) paths.push(prefix + part);
      else paths.push(...maskPaths(part.slice(open + 1, -1), `${prefix}${part.slice(0, open)}.`));
      start = i + 1;
    }
  }
  return paths;
}

// Fields both ways: each field table entry says where the field lives on the API object, so a
// guest can be read from its id alone (what `pulumi import` hands a provider) into the inputs a
// program would declare for it.
describe('a VirtualGuest read from its id alone', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(200)));
  after(() => emulator?.close());

  it('gives the inputs a program would declare, and declaring them is no change', async () => {
    const guests = new VirtualGuestManager(client);
    const ordered = await guests.createFromTemplate({
      hostname: 'imported',
      domain: 'read.example.com',
      startCpus: 2,
      maxMemory: 2048,
      hourlyBillingFlag: true,
      localDiskFlag: false,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      datacenter: { name: 'dal12' },
      networkComponents: [{ maxSpeed: 1000 }],
      blockDevices: [{ device: '0', diskImage: { capacity: 100 } }],
      userData: [{ value: '#cloud-config\r\n' }],
      tagReferences: undefined,
    });
    await guests.setTags(ordered.id, ['web', 'blue']);
    await guests.editInstance(ordered.id, { notes: 'from elsewhere' });
    await guests.waitForReady(ordered.id, { timeoutMs: 30_000 });

    const { id, inputs } = await provider.read(String(ordered.id), {});
    assert.equal(id, String(ordered.id));
    assert.deepEqual(
      Object.fromEntries(Object.entries(inputs as Bag).sort(([a], [b]) => a.localeCompare(b))),
      {
        datacenter: 'dal12',
        disks: [100],
        domain: 'read.example.com',
        hostname: 'imported',
        localDiskFlag: false,
        maxMemory: 2048,
        networkSpeed: 1000,
        notes: 'from elsewhere',
        operatingSystemReferenceCode: 'UBUNTU_LATEST',
        startCpus: 2,
        tags: ['blue', 'web'],
        userData: '#cloud-config\r\n',
      },
      'what a user writes: no default spelled out, the OS as the newest Ubuntu is named',
    );

    // The engine stores the import's inputs as check gives them back (defaults filled in); a
    // program that declares what was read changes nothing.
    const program = { ...(inputs as Bag), resourceName: 'imported', identity: 'p/s/imported' };
    const stored = await provider.check(program, program);
    assert.deepEqual(stored.failures, []);
    const { inputs: news, failures } = await provider.check(stored.inputs as Bag, program);
    assert.deepEqual(failures, []);
    const olds = stored.inputs as Bag;
    assert.deepEqual(await provider.diff(id, olds, news as Bag), { changes: false });
  });

  it('reads every field that says where it lives with the mask guests are read with', () => {
    const requested = new Set(maskPaths(DETAIL_MASK));
    // A relation asked for bare (`powerState`) brings its local properties.
    const covered = (path: string) =>
      requested.has(path) || requested.has(path.slice(0, path.lastIndexOf('.')));
    const missing = readMask(GUEST_FIELDS)
      .split(',')
      .filter((path) => !covered(path));
    assert.deepEqual(missing, []);
  });
});

// The other kinds, read through the same table rules (framework/kind-provider.ts).
describe('SshKey, DnsRecord, DnsZone and TicketUpdate read from the id alone', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(200)));
  after(() => emulator?.close());

  /** Reads `id` as an import does, then checks that declaring what was read is no change. */
  async function importAndDeclare(provider: RuntimeProvider, id: string) {
    const { inputs, props } = await provider.read(id, {});
    // The next `up` checks the declared inputs against the imported ones.
    const checked = await provider.check(inputs as Bag, inputs as Bag);
    assert.deepEqual(checked.failures, []);
    const diff = await provider.diff(id, props as Bag, checked.inputs as Bag);
    assert.equal(diff.changes, false);
    return { inputs: inputs as Bag, props: props as Bag };
  }

  it('an SSH key added by hand', async () => {
    const publicKey = freshEd25519('by-hand');
    const key = await new SshKeyManager(client).createKey({ label: 'ops', key: publicKey });
    const { inputs, props } = await importAndDeclare(sshKeyProvider, String(key.id));
    assert.deepEqual(inputs, { label: 'ops', publicKey });
    assert.equal(props.keyId, key.id);
    assert.equal(props.fingerprint, key.fingerprint);
  });

  it('an MX record added by hand, in a zone named by id', async () => {
    const dns = new DnsManager(client);
    const zone = await dns.createZone('imported.example.com', []);
    const record = await dns.createRecord(zone.id, {
      host: '@',
      type: 'mx',
      data: 'mail.imported.example.com',
      ttl: 3600,
      mxPriority: 20,
    });
    const { inputs, props } = await importAndDeclare(dnsRecordProvider, String(record.id));
    assert.deepEqual(inputs, {
      zoneId: zone.id,
      host: '@',
      type: 'MX',
      data: 'mail.imported.example.com',
      ttl: 3600,
      mxPriority: 20,
    });
    assert.deepEqual([props.recordId, props.resolvedZoneId], [record.id, zone.id]);
    assert.equal(typeof props.accountId, 'number', 'the owner is recorded, as on a create');
  });

  it('a zone added by hand, with a record: the zone is declared by its name alone', async () => {
    const dns = new DnsManager(client);
    const zone = await dns.createZone('zone-import.example.com', [
      { host: 'www', type: 'A', data: '10.1.1.1' },
    ]);
    const { inputs, props } = await importAndDeclare(dnsZoneProvider, String(zone.id));
    assert.deepEqual(inputs, { name: 'zone-import.example.com' });
    assert.equal(props.zoneId, zone.id);
    assert.deepEqual(props.records, [], 'its records are imported as DnsRecords of their own');
  });

  it('a ticket update cannot be read without its ticket, and the error says why', async () => {
    await assert.rejects(
      ticketUpdateProvider.read('77', {}),
      /TicketUpdate 77 cannot be imported: the API reads an update only through its ticket/,
    );
  });

  it('each kind reads its fields with a mask its manager asks for', () => {
    for (const [fields, mask] of [
      [SSH_KEY_FIELDS, SSH_KEY_MASK],
      [DNS_RECORD_FIELDS, RECORD_MASK],
    ] as const) {
      const asked = new Set(maskPaths(mask));
      assert.deepEqual(
        readMask(fields)
          .split(',')
          .filter((path) => !asked.has(path)),
        [],
      );
    }
  });
});
