import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ImportEntry } from '../../commands/adopt';
import { HardwareManager, type BareMetalServer } from '../../provider/managers';
import { cliFixture, previewBilling, pulumiSvc, writeCalls, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlOneKind, type OneKindProgram } from './plugin-project';

const ORDER = 'Product_Order.placeOrder';
const RELOAD = 'Hardware_Server.reloadOperatingSystem';
/** Each of the four provisioning stages (hours in real life): a server is ready in about 1 s. */
const STAGE_MS = 250;

const tsProgram = (): OneKindProgram => ({
  fixture: (emulator) => cliFixture({ program: 'baremetal', emulator }),
  write: (f, data) => f.stack.setConfig({ 'baremetal:server': { value: JSON.stringify(data) } }),
});

scenarioPerDoor(
  'BareMetalServer through the Pulumi CLI: priced in preview, ordered once through a lost answer, edited and reloaded in place, a deadline, adopted, cancelled',
  scenario,
);

const HOURLY = {
  preset: 'S1270_32GB_1X1TBSATA_NORAID',
  operatingSystemReferenceCode: 'UBUNTU_22_64',
  datacenter: 'dal10',
  domain: 'bm.example.com',
  tags: ['web'],
};

/** A server ordered over XML-RPC as a user does by hand (no creation token), once provisioned. */
async function orderByHand(servers: HardwareManager, hostname: string): Promise<BareMetalServer> {
  const container = await servers.orderContainer({
    preset: HOURLY.preset,
    os: 'UBUNTU_22_64',
    portSpeed: 100,
    datacenter: 'dal10',
    hourly: true,
    hostname,
    domain: 'hand.example.com',
    sshKeyIds: [],
    tags: ['by-hand'],
  });
  await servers.place(container);
  for (let waited = 0; waited < 10_000; waited += 100) {
    const made = (await servers.listServers()).find((s) => s.hostname === hostname);
    if (made?.provisionDate) return made;
    await sleep(100);
  }
  throw new Error(`server ${hostname} is not provisioned after 10 s`);
}

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  emulator.settings.hardwareStageMs = STAGE_MS;
  const program =
    door.name === 'plugin'
      ? yamlOneKind('baremetal', 'BareMetalServer', 'server', {})
      : tsProgram();
  const f = await program.fixture(emulator);
  const servers = new HardwareManager(f.client);
  const before = (await servers.listServers()).map((s) => s.id);
  const made = async () => (await servers.listServers()).filter((s) => !before.includes(s.id));
  const orders = () => writeCalls(emulator, ORDER);
  try {
    const data = { ...HOURLY, hostname: `bm-${door.name}` };
    await program.write(f, data);

    // Preview: the order priced (a BILLING line and the billing report's create), nothing bought.
    const ordersBefore = orders();
    const preview = await previewBilling(f);
    assert.match(
      preview.messages,
      /BILLING create BareMetalServer "server" orders a new bare metal server: S1270_32GB_1X1TBSATA_NORAID, UBUNTU_22_64, 1000 Mbps in dal10; hourly, \$\d+\.\d{4}\/hour/,
    );
    const [create] = preview.changes;
    assert.deepEqual(
      [create?.op, create?.kind, create?.mode],
      ['create', 'BareMetalServer', 'hourly'],
    );
    assert.ok((create?.newHourly ?? 0) > 0, 'priced');
    assert.equal(orders(), ordersBefore, 'a preview orders nothing');

    // The order's answer is lost (the dynamic door) or a proxy answers 502 after it committed
    // (the plugin): one server, found by its token; the next ups order nothing.
    emulator.setFaults({
      once: {
        service: 'Product_Order',
        method: 'placeOrder',
        ...(door.name === 'plugin'
          ? { fault: 'error-after-commit', status: 502 }
          : { fault: 'lose-response' }),
      },
    });
    await f.stack.up();
    const [id] = await f.stateIds('BareMetalServer');
    const [server, ...others] = await made();
    assert.deepEqual(others, [], 'exactly one server');
    assert.equal(String(server.id), id);
    assert.ok(server.provisionDate, 'provisioned');
    assert.equal(orders() - ordersBefore, 1, 'one order');

    // Names, notes and tags in place, the uplinks slowed to 100 Mbps on their 1000 Mbps ports,
    // and another OS with onImageChange: reload, reinstalled in place once: one update of the
    // same server.
    const reloadsBefore = writeCalls(emulator, RELOAD);
    const edited = {
      ...data,
      hostname: `bm-${door.name}-b`,
      notes: 'db',
      tags: ['web', 'db'],
      networkSpeed: 100,
      operatingSystemReferenceCode: 'UBUNTU_24_64',
      onImageChange: 'reload',
    };
    await program.write(f, edited);
    await f.stack.up();
    assert.deepEqual(await f.stateIds('BareMetalServer'), [id]);
    const now = await servers.getServer(Number(id));
    assert.deepEqual(
      [now.hostname, now.notes, now.operatingSystemReferenceCode],
      [edited.hostname, 'db', 'UBUNTU_24_64'],
    );
    assert.equal(writeCalls(emulator, RELOAD) - reloadsBefore, 1, 'one reload');
    assert.deepEqual(
      [now.primaryNetworkComponent?.speed, now.primaryBackendNetworkComponent?.speed],
      [100, 100],
    );
    if (door.name === 'plugin') await f.stack.preview(['--expect-no-changes']);
    assert.equal(orders() - ordersBefore, 1, 'still one order, after the next runs');

    // Destroy: an hourly server's billing item is cancelled and the server is gone at once.
    await f.stack.destroy();
    assert.deepEqual(await made(), [], 'cancelled at once');
    assert.deepEqual(await f.stateIds('BareMetalServer'), []);

    // A monthly server past its create deadline (customTimeouts on the plugin, the server's own
    // readyTimeoutMinutes on the dynamic door): the id is kept; the next up orders nothing.
    emulator.settings.hardwareStageMs = 1_500;
    const monthly = {
      ...HOURLY,
      hostname: `mon-${door.name}`,
      preset: 'S1270_8GB_2X1TBSATA_NORAID',
      hourlyBilling: false,
    };
    const slowOrders = orders();
    try {
      if (door.name === 'plugin')
        await program.write(f, monthly, undefined, { customTimeouts: { create: '3s' } });
      else await program.write(f, { ...monthly, readyTimeoutMinutes: 0.05 });
      await assert.rejects(f.stack.up(), /not ready after \d+ s/);
    } finally {
      emulator.settings.hardwareStageMs = STAGE_MS;
    }
    const [kept] = await made();
    assert.deepEqual(await f.stateIds('BareMetalServer'), [String(kept.id)], 'the id is kept');
    await program.write(f, monthly);
    await f.stack.up();
    assert.equal(orders() - slowOrders, 1, 'no second order');
    assert.deepEqual(
      (await made()).map((s) => s.id),
      [kept.id],
    );
    assert.ok((await servers.getServer(kept.id)).provisionDate);

    // Adoption (the plugin: Pulumi imports no dynamic resource): a server made by hand, found by
    // `pulumi-svc audit --import-file`, imported, declared as it is: no change.
    let byHand: BareMetalServer | undefined;
    if (door.name === 'plugin') {
      byHand = await orderByHand(servers, 'hand1');
      const file = path.join(f.dir, 'adopt.json');
      await pulumiSvc(f, ['audit', '--json', '--stack', 'test', '--import-file', file]);
      const entries = (JSON.parse(fs.readFileSync(file, 'utf8')) as { resources: ImportEntry[] })
        .resources;
      const listed = entries.filter((e) => e.type === 'svc:index:BareMetalServer');
      const entry = listed.find((e) => e.id === String(byHand!.id));
      assert.ok(entry, 'the hand-made server is listed');
      assert.ok(!listed.some((e) => e.id === String(kept.id)), "the stack's own is not");
      fs.writeFileSync(file, JSON.stringify({ resources: [{ ...entry, name: 'imported' }] }));
      await f.stack.run(['import', '--file', file, '--yes', '--protect=false']);
      // As a user declares it (the generated program's properties; its VLANs left to the API).
      await program.write(f, monthly, {
        hostname: 'hand1',
        domain: 'hand.example.com',
        preset: HOURLY.preset,
        operatingSystemReferenceCode: 'UBUNTU_22_64',
        datacenter: 'dal10',
        networkSpeed: 100,
        tags: ['by-hand'],
      });
      await f.stack.preview(['--expect-no-changes']);
    }

    // Destroy: the monthly server is cancelled at its anniversary (billed until then).
    await f.stack.destroy();
    const cancelled = await servers.findServer(kept.id);
    assert.ok(cancelled?.billingItem?.cancellationDate, 'cancelled at its anniversary');
    if (byHand)
      assert.equal(
        await servers.findServer(byHand.id),
        undefined,
        'the adopted hourly one is gone',
      );
    assert.deepEqual(await f.stateIds('BareMetalServer'), []);
  } finally {
    await f.close();
  }
}
