import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gatherBilling, parseBillingArgs } from '../../commands/billing-command';
import { DOORS, ownerFixtures } from './front-door';

interface BilledGuest {
  id: number;
  hostname: string;
  billingItem: { recurringFee: string; nextBillDate: string };
}

describe('pulumi-svc billing on a real plan', () => {
  const fixture = ownerFixtures(DOORS.dynamic);

  it('dropping a monthly guest: the totals before and after, and what its cancel still owes until its anniversary', async () => {
    const monthly = { hourlyBillingFlag: false };
    const f = await fixture({ guests: ['kept', 'dropped'], guest: monthly });
    await f.stack.up();
    const billed = (await f.client.call('Account', 'getVirtualGuests', {
      mask: 'id,hostname,billingItem[recurringFee,nextBillDate]',
    })) as BilledGuest[];
    const droppedId = (await f.stack.resources()).find((r) => r.urn.endsWith('::dropped'))?.id;
    const dropped = billed.find((g) => String(g.id) === droppedId)!;
    const kept = billed.find((g) => g !== dropped)!;

    await DOORS.dynamic.setOwner(f, { guests: ['kept'], guest: monthly });
    const report = await gatherBilling(f.dir, parseBillingArgs(['--stack', 'test']), f.stack.env);
    assert.deepEqual(
      report.changes.map((c) => [c.op, c.name, c.mode, c.id]),
      [['delete', 'dropped', 'monthly', String(dropped.id)]],
    );
    const fee = (g: BilledGuest) => Number(g.billingItem.recurringFee);
    assert.equal(report.totals.monthlyBefore, Math.round((fee(kept) + fee(dropped)) * 100) / 100);
    assert.equal(report.totals.monthlyAfter, fee(kept));
    const { cancel } = report.changes[0];
    assert.equal(cancel?.billedUntil, dropped.billingItem.nextBillDate, 'its billing anniversary');
    assert.ok(cancel.owedAfterCancel > 0 && cancel.owedAfterCancel <= fee(dropped));
    assert.deepEqual(report.unpriced, []);
  });
});
