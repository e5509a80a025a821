import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualGuestManager } from '../../provider/managers';
import { frontDoors, ownerFixtures } from './front-door';

// A guest resized outside Pulumi (an upgrade order placed directly over XML-RPC) bills more from
// then on: a refreshing preview says so with both monthly costs, on either front door, and
// `pulumi refresh` records what is billed now.
for (const door of frontDoors()) {
  describe(`cost drift in pulumi preview --refresh (${door.name})`, () => {
    const fixture = ownerFixtures(door);

    it('names the guest, what its state recorded and what its billing item bills now', async () => {
      const f = await fixture({ guests: ['server'] });
      await f.stack.up();
      const [id] = (await f.stateIds('VirtualGuest')).map(Number);
      const recordedOf = async () =>
        (await f.stack.resources()).find((r) => r.urn.endsWith('::server'))!.outputs!
          .estimatedMonthlyCost as number;
      const recorded = await recordedOf();

      const vgm = new VirtualGuestManager(f.client);
      await vgm.upgrade(
        await vgm.priceUpgrade(id, { cpus: 1, memory: 1024, disks: [25] }, { cpus: 2 }),
      );
      await vgm.waitForUpgrade(id, { cpus: 2 }, { timeoutMs: 60_000 });
      const { billingItem } = (await f.client.call('Virtual_Guest', 'getObject', {
        id,
        mask: 'billingItem.recurringFee',
      })) as { billingItem: { recurringFee: string } };
      const billed = Number(billingItem.recurringFee);
      assert.ok(billed > recorded, `${billed} > ${recorded}`);

      const { stdout } = await f.stack.preview(['--refresh']);
      const line = stdout.split('\n').find((l) => l.includes('COST DRIFT'));
      assert.ok(line, stdout);
      const delta = (billed - recorded).toFixed(2);
      assert.ok(
        line.includes(
          `COST DRIFT VirtualGuest "server" (id ${id}): billed $${billed.toFixed(2)}/month now, the state recorded $${recorded.toFixed(2)}/month (+$${delta}/month); changed outside Pulumi: startCpus 1 -> 2`,
        ),
        line,
      );
      assert.equal(await recordedOf(), recorded, 'a preview changes no state');

      await f.stack.run(['refresh', '--yes', '--skip-preview']);
      assert.equal(await recordedOf(), billed, 'refresh records what is billed now');
    });
  });
}
