/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
/**
 * Interop suite: the reference command line (`slcli` of PyPI `SoftLayer` 6.2.9, unchanged) run as
 * a user runs it first, against the emulator through the renaming proxy
 * (test/interop/rename-proxy.ts), from a home directory whose ~/.softlayer points at the proxy.
 * Each command must exit 0, and what it did is read back from the emulator's own objects.
 *
 * slcli is started as its console script does (`SoftLayer.CLI.core:main`) with the venv's python:
 * the venv is built in a temporary directory and renamed into place, which leaves the script's
 * `#!` line pointing at the temporary path.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type EmulatorHandle } from '../../emulator';
import { EmulatorClient } from '../support/emulator-client';
import { guestTemplate, sleep } from '../support/emulator-harness';
import { freshEd25519 } from '../support/ssh-keys';
import { ensureVenv, pythonEnv, type Venv } from './python-venv';
import { startRenameProxy, type RenameProxy } from './rename-proxy';

const MAIN =
  'import sys; sys.argv[0] = "slcli"; from SoftLayer.CLI.core import main; sys.exit(main())';
const DELAY = 1500;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('reference CLI (slcli of PyPI SoftLayer 6.2.9) against the emulator', () => {
  let venv: Venv;
  let emulator: EmulatorHandle | undefined;
  let proxy: RenameProxy | undefined;
  let home: string | undefined;
  let api: EmulatorClient;
  const running = new Set<ChildProcess>();

  before(async () => {
    venv = await ensureVenv('interop-venv', 'SoftLayer', '6.2.9');
    emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: DELAY });
    proxy = await startRenameProxy(new URL(emulator.url).origin);
    home = await mkdtemp(join(tmpdir(), 'svc-slcli-home-'));
    const { demo } = emulator.accounts;
    await writeFile(
      join(home, '.softlayer'),
      `[softlayer]\nusername = ${demo.username}\napi_key = ${demo.apiKey}\n` +
        `endpoint_url = ${proxy.endpoint}\ntimeout = 60\n`,
    );
    api = new EmulatorClient(emulator.url, { username: demo.username, apiKey: demo.apiKey });
  });

  after(async () => {
    for (const child of running) child.kill('SIGKILL');
    await proxy?.close();
    await emulator?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** Runs `slcli <args>` (JSON output, no prompts) and answers its exit code and output. */
  function slcli(...args: string[]): Promise<Run> {
    const child = spawn(venv.python, ['-c', MAIN, '--format', 'json', '-y', ...args], {
      env: pythonEnv(home!, {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        running.delete(child);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** `slcli <args>` must exit 0; answers its JSON output (or the raw text). */
  async function ok(...args: string[]): Promise<any> {
    const run = await slcli(...args);
    assert.equal(run.code, 0, `slcli ${args.join(' ')}\n${run.stdout}\n${run.stderr}`);
    try {
      return JSON.parse(run.stdout);
    } catch {
      return run.stdout;
    }
  }

  const guestsNamed = async (hostname: string) =>
    api.call<any[]>('Account', 'getVirtualGuests', {
      mask: 'mask[id, hostname, startCpus, maxMemory, hourlyBillingFlag, datacenter.name, blockDevices[device, diskImage.capacity], tagReferences.tag.name, provisionDate]',
      filter: { virtualGuests: { hostname: { operation: hostname } } },
    });

  it('summary, vlan list and vs create-options answer', { timeout: 300_000 }, async () => {
    await ok('summary');
    const vlans = await ok('vlan', 'list');
    assert.ok(Array.isArray(vlans) && vlans.length > 0, 'the demo account has VLANs');
    await ok('vs', 'create-options');
    await ok('vs', 'create-options', '--vsi-type', 'CLOUD_SERVER', '--prices', 'mon01');
    await ok('vs', 'os-available');
  });

  it('vs create --test verifies and orders nothing', { timeout: 300_000 }, async () => {
    await ok(
      'vs',
      'create',
      '--test',
      '-H',
      'cli-test',
      '-D',
      'example.com',
      '-c',
      '1',
      '-m',
      '1024',
      '-d',
      'dal10',
      '-o',
      'UBUNTU_LATEST',
    );
    assert.deepEqual(await guestsNamed('cli-test'), []);
  });

  it(
    'vs create orders a guest of those sizes; list, detail, then cancel',
    { timeout: 300_000 },
    async () => {
      await ok(
        'vs',
        'create',
        '-H',
        'cli1',
        '-D',
        'example.com',
        '-c',
        '2',
        '-m',
        '4096',
        '-d',
        'mon01',
        '-o',
        'DEBIAN_12_64',
        '--disk',
        '25',
        '--disk',
        '100',
        '--tag',
        'cli',
        '--billing',
        'monthly',
      );
      const [guest] = await guestsNamed('cli1');
      assert.ok(guest, 'the emulator holds the guest');
      assert.equal(guest.startCpus, 2);
      assert.equal(guest.maxMemory, 4096);
      assert.equal(guest.hourlyBillingFlag, false);
      assert.equal(guest.datacenter.name, 'mon01');
      assert.deepEqual(
        guest.blockDevices
          .filter((d: any) => d.device !== '1')
          .map((d: any) => d.diskImage.capacity),
        [25, 100],
      );
      assert.deepEqual(
        guest.tagReferences.map((r: any) => r.tag.name),
        ['cli'],
      );
      const listed = await ok('vs', 'list');
      assert.ok(
        listed.some((row: any) => row.id === guest.id),
        'vs list shows it',
      );
      const detail = await ok('vs', 'detail', 'cli1');
      assert.ok(JSON.stringify(detail).includes('cli1.example.com'));
      await ok('vs', 'ready', 'cli1', '--wait', '60');
      await ok('vs', 'cancel', 'cli1');
      assert.deepEqual(await guestsNamed('cli1'), [], 'the guest is gone');
    },
  );

  it(
    'dns zone and record commands change the zones the emulator holds',
    { timeout: 300_000 },
    async () => {
      await ok('dns', 'zone-create', 'cli-zone.example');
      await ok(
        'dns',
        'record-add',
        'www',
        'A',
        '192.0.2.77',
        '--zone',
        'cli-zone.example',
        '--ttl',
        '900',
      );
      const records = await ok('dns', 'record-list', 'cli-zone.example');
      assert.ok(records.some((r: any) => r.record === 'www'));
      const [zone] = await api.call<any[]>('Account', 'getDomains', {
        mask: 'mask[id, name, resourceRecords[host, type, data, ttl]]',
        filter: { domains: { name: { operation: 'cli-zone.example' } } },
      });
      assert.ok(
        zone.resourceRecords.some(
          (r: any) =>
            r.host === 'www' &&
            r.type.toLowerCase() === 'a' &&
            r.data === '192.0.2.77' &&
            r.ttl === 900,
        ),
      );
      await ok('dns', 'zone-list');
    },
  );

  it('ticket list, detail and update; sshkey add and list', { timeout: 300_000 }, async () => {
    const tickets = await ok('ticket', 'list');
    const id = tickets[0].id;
    await ok('ticket', 'detail', String(id));
    await ok('ticket', 'update', String(id), '--body', 'from slcli');
    const updates = await api.call<any[]>('Ticket', 'getUpdates', { id, mask: 'entry' });
    assert.ok(
      updates.some((u) => u.entry === 'from slcli'),
      'the ticket has the update',
    );
    const keyFile = join(home!, 'cli-key.pub');
    await writeFile(keyFile, `${freshEd25519('cli@svc')}\n`);
    await ok('sshkey', 'add', 'cli-key', '-f', keyFile);
    const keys = await ok('sshkey', 'list');
    assert.ok(keys.some((k: any) => k.label === 'cli-key'));
    const held = await api.call<any[]>('Account', 'getSshKeys', { mask: 'label' });
    assert.ok(
      held.some((k) => k.label === 'cli-key'),
      'the emulator holds the key',
    );
  });

  it(
    'sg commands manage a group, its rules and a guest interface; vs placementgroup its groups',
    { timeout: 300_000 },
    async () => {
      const created = await ok('sg', 'create', '--name', 'cli-sg', '--description', 'from slcli');
      const id = String(created.id);
      await ok('sg', 'rule-add', id, '-d', 'ingress', '-p', 'tcp', '-m', '22', '-M', '22');
      await ok('sg', 'rule-add', id, '-d', 'ingress', '-p', 'icmp', '-m', '8', '-M', '0');
      const rules = await api.call<any[]>('Network_SecurityGroup', 'getRules', { id: created.id });
      assert.deepEqual(
        rules.map((r) => [r.protocol, r.portRangeMin, r.portRangeMax]),
        [
          ['tcp', 22, 22],
          ['icmp', 8, 0],
        ],
      );
      await ok('sg', 'rule-remove', id, String(rules[1].id));
      assert.equal((await ok('sg', 'rule-list', id)).length, 1);
      const guest = await api.call<any>('Virtual_Guest', 'createObject', {
        args: [guestTemplate({ hostname: 'cli-sg-guest' })],
      });
      await sleep(DELAY + 200);
      await ok('sg', 'interface-add', id, '--server', String(guest.id), '--interface', 'private');
      await sleep(DELAY + 200);
      const bound = await ok('sg', 'interface-list', id);
      assert.deepEqual(
        bound.map((row: any) => [row.virtualServerId, row.interface]),
        [[guest.id, 'PRIVATE']],
      );
      const refused = await slcli('sg', 'delete', id);
      assert.notEqual(refused.code, 0, 'a bound group is not deleted');
      await ok(
        'sg',
        'interface-remove',
        id,
        '--server',
        String(guest.id),
        '--interface',
        'private',
      );
      await sleep(DELAY + 200);
      await ok('sg', 'delete', id);
      assert.ok(
        !(await ok('sg', 'list')).some((row: any) => row.id === created.id),
        'sg list no longer shows it',
      );

      await ok(
        'vs',
        'placementgroup',
        'create',
        '--name',
        'cli-pg',
        '-b',
        'bcr01a.dal10',
        '-r',
        'SPREAD',
      );
      const [group] = await api.call<any[]>('Account', 'getPlacementGroups', {
        mask: 'id,name,backendRouter[hostname],rule[keyName]',
      });
      assert.equal(group.name, 'cli-pg');
      assert.equal(group.rule.keyName, 'SPREAD');
      assert.ok((await ok('vs', 'placementgroup', 'list')).length >= 1);
      await ok('vs', 'placementgroup', 'detail', String(group.id));
      await ok('vs', 'placementgroup', 'delete', String(group.id));
      assert.deepEqual(await api.call('Account', 'getPlacementGroups'), []);
    },
  );

  it(
    'dedicatedhost list and detail show a host, its size and its guest',
    { timeout: 300_000 },
    async () => {
      const [pkg] = await api.call<any[]>('Product_Package', 'getAllObjects', {
        filter: { keyName: { operation: 'DEDICATED_HOST' } },
        mask: 'id,items[keyName,prices.id]',
      });
      const size = pkg.items.find((i: any) => i.keyName === '56_CORES_X_242_RAM_X_1_4_TB');
      const [dc] = await api.call<any[]>('Location_Datacenter', 'getDatacenters', {
        filter: { name: { operation: 'dal10' } },
        mask: 'id',
      });
      const [router] = await api.call<any[]>('Virtual_DedicatedHost', 'getAvailableRouters', {
        args: [{ datacenter: { id: dc.id } }],
        mask: 'id',
      });
      await api.call('Product_Order', 'placeOrder', {
        args: [
          {
            complexType: 'Svc_Container_Product_Order_Virtual_DedicatedHost',
            packageId: pkg.id,
            location: 'dal10',
            quantity: 1,
            prices: [{ id: size.prices[0].id }],
            hardware: [
              {
                hostname: 'cli-dh',
                domain: 'example.com',
                primaryBackendNetworkComponent: { router: { id: router.id } },
              },
            ],
            useHourlyPricing: true,
          },
        ],
      });
      const [host] = await api.call<any[]>('Account', 'getDedicatedHosts', {
        mask: 'id',
        filter: { dedicatedHosts: { name: { operation: 'cli-dh' } } },
      });
      const guest = await api.call<any>('Virtual_Guest', 'createObject', {
        args: [guestTemplate({ hostname: 'cli-dh-guest', dedicatedHost: { id: host.id } })],
      });
      const listed = await ok('dedicatedhost', 'list');
      const row = listed.find((r: any) => r.Id === host.id || r.id === host.id);
      assert.ok(row, JSON.stringify(listed));
      const detail = await ok('dedicatedhost', 'detail', String(host.id), '--guests');
      const text = JSON.stringify(detail);
      for (const wanted of [
        'cli-dh',
        '56',
        '242',
        '1200',
        'dal10',
        'cli-dh-guest',
        String(guest.id),
      ])
        assert.ok(text.includes(wanted), `detail shows ${wanted}: ${text}`);
    },
  );

  it('commands out of scope fail with a clear fault', { timeout: 300_000 }, async () => {
    const run = await slcli('account', 'events');
    assert.notEqual(run.code, 0);
    assert.match(run.stdout + run.stderr, /MethodNotFound\(-32601\).*not modeled here/);
  });
});
