import assert from 'node:assert/strict';
import { DedicatedHostManager } from '../../provider/managers';
import { cliFixture, previewBilling, writeCalls, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlOneKind, type OneKindProgram } from './plugin-project';

const ORDER = 'Product_Order.placeOrder';

const tsProgram = (): OneKindProgram => ({
  fixture: (emulator) => cliFixture({ program: 'dedicatedhost', emulator }),
  write: (f, data) => f.stack.setConfig({ 'dedicatedhost:host': { value: JSON.stringify(data) } }),
});

scenarioPerDoor(
  'DedicatedHost through the Pulumi CLI: priced in preview, ordered once through a lost answer, renamed in place, cancelled on destroy',
  scenario,
);

const HOST = {
  domain: 'dh.example.com',
  datacenter: 'dal10',
  size: '48_CORES_X_192_RAM_X_1_TB',
  hourlyBilling: true,
};

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program =
    door.name === 'plugin'
      ? yamlOneKind('dedicatedhost', 'DedicatedHost', 'host', {})
      : tsProgram();
  const f = await program.fixture(emulator);
  const hosts = new DedicatedHostManager(f.client);
  const before = (await hosts.listHosts()).map((h) => h.id);
  const made = async () => (await hosts.listHosts()).filter((h) => !before.includes(h.id));
  const orders = () => writeCalls(emulator, ORDER);
  try {
    const data = { ...HOST, name: `dh-${door.name}` };
    await program.write(f, data);

    // Preview: the order priced (a BILLING line and the billing report's create), nothing bought.
    const ordersBefore = orders();
    const preview = await previewBilling(f);
    assert.match(
      preview.messages,
      /BILLING create DedicatedHost "host" orders a new dedicated host: 48_CORES_X_192_RAM_X_1_TB \(48 cores, 192 GB memory, 1000 GB disk\) in dal10; hourly, \$1\.6993\/hour/,
    );
    const [create] = preview.changes;
    assert.deepEqual(
      [create?.op, create?.kind, create?.mode, create?.newHourly],
      ['create', 'DedicatedHost', 'hourly', 1.6993],
    );
    assert.equal(orders(), ordersBefore, 'a preview orders nothing');
    assert.deepEqual(await made(), []);

    // The order's answer is lost (the dynamic door) or a proxy answers 502 after it committed
    // (the plugin): one host, found by its token; the next up orders nothing.
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
    const [id] = await f.stateIds('DedicatedHost');
    const [host, ...others] = await made();
    assert.deepEqual(others, [], 'exactly one host');
    assert.equal(String(host.id), id);
    assert.equal(orders() - ordersBefore, 1, 'one order');
    await f.stack.up();
    assert.deepEqual(await f.stateIds('DedicatedHost'), [id]);
    assert.equal(orders() - ordersBefore, 1, 'still one order after another up');

    // A new name: renamed in place, the same host.
    const renamed = { ...data, name: `dh-${door.name}-b` };
    await program.write(f, renamed);
    await f.stack.up();
    assert.deepEqual(await f.stateIds('DedicatedHost'), [id]);
    assert.equal((await hosts.getHost(Number(id))).name, renamed.name);
    await f.stack.preview(['--expect-no-changes']);
    assert.equal(orders() - ordersBefore, 1, 'no other order');

    // Destroy: the hourly host's billing item is cancelled and the host is gone at once.
    const itemId = host.billingItem!.id;
    await f.stack.destroy();
    assert.deepEqual(await made(), [], 'cancelled at once');
    const item = (await f.client.call('Billing_Item', 'getObject', {
      id: itemId,
      mask: 'cancellationDate',
    })) as { cancellationDate?: string };
    assert.ok(item.cancellationDate, 'its billing item is cancelled');
    assert.deepEqual(await f.stateIds('DedicatedHost'), []);
  } finally {
    await f.close();
  }
}
