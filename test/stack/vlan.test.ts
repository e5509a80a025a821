import assert from 'node:assert/strict';
import { markedNote } from '../../provider/framework/creation-token';
import { listVlans, orderContainer, placeOrder, type Vlan } from '../../provider/kinds/vlan/api';
import { cliFixture, writeCalls, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlOneKind, type OneKindProgram } from './plugin-project';

const tsProgram = (): OneKindProgram => ({
  fixture: (emulator) => cliFixture({ program: 'network', emulator }),
  write: (f, db) => f.stack.setConfig({ 'network:vlan': { value: JSON.stringify(db) } }),
});

scenarioPerDoor(
  'Vlan through the Pulumi CLI: ordered exactly once under a lost answer and a 502 after the commit, renamed in place, replaced, imported, cancelled',
  scenario,
);

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program =
    door.name === 'plugin'
      ? yamlOneKind('network', 'Vlan', 'db', { datacenter: 'dal10', networkSpace: 'PRIVATE' })
      : tsProgram();
  const f = await program.fixture(emulator);
  try {
    const before = (await listVlans(f.client)).map((v) => v.id);
    /** The VLANs this scenario ordered, live or cancelled. */
    const mine = async () => (await listVlans(f.client)).filter((v) => !before.includes(v.id));
    const live = async () => (await mine()).filter((v) => !v.billingItem?.cancellationDate);
    const ids = (vlans: Vlan[]) => vlans.map((v) => String(v.id));
    const db = { datacenter: 'dal10', networkSpace: 'PRIVATE', name: `db-${door.name}` };

    // The answer to placeOrder is lost: the order is found by its token, not placed twice.
    emulator.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'lose-response' },
    });
    await program.write(f, db);
    await f.stack.up();
    const [id] = await f.stateIds('Vlan');
    assert.deepEqual(ids(await mine()), [id], 'exactly one VLAN ordered');

    // Name and notes in place: the same VLAN, nothing ordered.
    const orders = writeCalls(emulator, 'placeOrder');
    await program.write(f, { ...db, name: `db2-${door.name}`, notes: 'databases' });
    await f.stack.up();
    assert.deepEqual(await f.stateIds('Vlan'), [id]);
    const renamed = (await mine()).find((v) => String(v.id) === id)!;
    // Its note as declared, the handed mark as its last line.
    assert.deepEqual([renamed.name, renamed.note], [`db2-${door.name}`, markedNote('databases')]);
    assert.equal(writeCalls(emulator, 'placeOrder'), orders, 'no order for an edit');

    // Another network space replaces it; the new order is answered 502 after it committed.
    emulator.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'error-after-commit' },
    });
    const pub = { ...db, networkSpace: 'PUBLIC', cancelImmediately: true };
    await program.write(f, pub);
    await f.stack.up();
    const [replaced] = await f.stateIds('Vlan');
    assert.notEqual(replaced, id);
    assert.deepEqual(ids(await live()), [replaced], 'one new VLAN; the old one cancelled');
    assert.equal(writeCalls(emulator, 'placeOrder'), orders + 1, 'the replace ordered once');
    await f.stack.up();
    assert.equal(writeCalls(emulator, 'placeOrder'), orders + 1, 'up again orders nothing');
    await f.stack.preview(['--expect-no-changes']);

    // Import (the plugin: Pulumi imports no dynamic resource): a VLAN ordered over XML-RPC.
    let byHand: Vlan | undefined;
    if (door.name === 'plugin') {
      const hand = { datacenter: 'wdc07', networkSpace: 'PRIVATE' as const, name: 'by-hand' };
      await placeOrder(
        f.client,
        await orderContainer(f.client, { ...hand, containerIdentifier: 'by-hand' }),
      );
      byHand = (await mine()).find((v) => v.name === 'by-hand')!;
      await f.stack.run([
        'import',
        'svc:index:Vlan',
        'imported',
        String(byHand.id),
        '--yes',
        '--protect=false',
      ]);
      await program.write(f, pub, { ...hand, routerHostname: 'bcr01a.wdc07' });
      assert.deepEqual((await f.stateIds('Vlan')).sort(), [replaced, String(byHand.id)].sort());
      await f.stack.preview(['--expect-no-changes']);
    }

    // Destroy: cancelled through the billing item (at once, as the program asks).
    await f.stack.destroy();
    assert.deepEqual(ids(await live()), [], 'every VLAN of the scenario is cancelled');
    assert.deepEqual(await f.stateIds('Vlan'), []);
  } finally {
    await f.close();
  }
}
