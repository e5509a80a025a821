import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { readMask } from '../../provider/framework/fields';
import { GUEST_FIELDS } from '../../provider/kinds/virtual-guest/fields';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { DETAIL_MASK, VirtualGuestManager } from '../../provider/managers';
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
        hourlyBillingFlag: true,
        localDiskFlag: false,
        maxMemory: 2048,
        networkSpeed: 1000,
        notes: 'from elsewhere',
        operatingSystemReferenceCode: 'UBUNTU_24_64',
        privateNetworkOnly: false,
        readyTimeoutMinutes: 30,
        sshKeyIds: [],
        startCpus: 2,
        tags: ['blue', 'web'],
        userData: '#cloud-config\r\n',
        waitForReady: true,
      },
    );

    // A program that declares what was read (and takes the guest over) changes nothing.
    const program = { ...(inputs as Bag), resourceName: 'imported', identity: 'p/s/imported' };
    const { inputs: news, failures } = await provider.check({}, { ...program, adoptId: id });
    assert.deepEqual(failures, []);
    const olds = { ...(inputs as Bag), ...program, adoptId: id };
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
