import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { setLineSink } from '../../provider/framework/log';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import { VirtualGuestManager, tagNames, type VirtualGuest } from '../../provider/managers';
import { checkedGuest, declaredGuest, providerEnv, type Emulator } from '../support/provider-env';

type Bag = Record<string, unknown>;

const DOMAIN = 'reclaim.example.com';
const declared = (name: string, extra: Bag = {}): Bag => declaredGuest(name, DOMAIN, extra);

const MASK =
  'id,tagReferences.tag.name,activeTransaction.transactionStatus.name,billingItem[cancellationDate,nextBillDate]';

// A cancelled guest is billed no more but stays visible while the API reclaims it (minutes on the
// real API; `reclaimDelayMs` here): destroy does not wait for it, and no later create adopts it.
describe('VirtualGuest delete: ends when the bill does; a guest reclaiming is never adopted', () => {
  let emulator: Emulator;
  let client: Client;
  let guests: VirtualGuestManager;
  const lines: string[] = [];

  before(async () => {
    ({ emulator, client } = await providerEnv(300));
    guests = new VirtualGuestManager(client);
    setLineSink((line) => lines.push(line.text));
  });
  afterEach(() => {
    emulator.settings.reclaimDelayMs = 0;
  });
  after(() => {
    setLineSink();
    return emulator?.close();
  });

  const checked = (name: string, extra: Bag = {}) => checkedGuest(declared(name, extra));
  const view = (id: number | string) => guests.findInstance(Number(id), MASK);
  const orders = () => emulator.stats().calls['Virtual_Guest.createObject'] ?? 0;
  const reclaiming = (guest: VirtualGuest | undefined) =>
    guest?.activeTransaction?.transactionStatus?.name === 'RECLAIM_WAIT';

  it('returns once an hourly guest is cancelled and unbilled, without waiting for the reclaim', async () => {
    emulator.settings.reclaimDelayMs = 120_000;
    const inputs = await checked('hourly');
    const { id, outs } = await provider.create(inputs);
    const started = Date.now();
    await provider.delete(id, { ...inputs, ...outs });
    assert.ok(Date.now() - started < 10_000, 'the reclaim is not waited for');
    const guest = await view(id);
    assert.ok(reclaiming(guest), `guest ${id} is still there, reclaiming`);
    const billedTo = Date.parse(String(guest!.billingItem?.cancellationDate));
    assert.ok(Math.abs(billedTo - started) < 10_000, 'its hourly billing stopped at the cancel');
    // A destroy run again (a retry) does not cancel twice, and does not wait either.
    const deletes = () => emulator.stats().calls['Virtual_Guest.deleteObject'] ?? 0;
    const sent = deletes();
    await provider.delete(id, { ...inputs, ...outs });
    assert.equal(deletes(), sent, 'not cancelled again');
  });

  it("names a monthly guest's anniversary, the date it is billed to", async () => {
    emulator.settings.reclaimDelayMs = 120_000;
    const inputs = await checked('monthly', { hourlyBillingFlag: false });
    const { id, outs } = await provider.create(inputs);
    const nextBill = (await view(id))!.billingItem!.nextBillDate!;
    lines.length = 0;
    await provider.delete(id, { ...inputs, ...outs });
    const guest = await view(id);
    assert.ok(reclaiming(guest));
    assert.equal(guest!.billingItem?.cancellationDate, nextBill, 'billed to its anniversary');
    assert.ok(
      lines.some((l) => l.includes(`billed to its anniversary ${nextBill}`)),
      lines.join('\n'),
    );
  });

  it('waits until the guest is gone with waitForReclaim: true', async () => {
    emulator.settings.reclaimDelayMs = 1_500;
    const inputs = await checked('waits', { waitForReclaim: true });
    const { id, outs } = await provider.create(inputs);
    const started = Date.now();
    await provider.delete(id, { ...inputs, ...outs });
    assert.ok(Date.now() - started >= 1_400, 'the reclaim was waited for');
    assert.equal(await view(id), undefined, 'gone');
  });

  it('a create skips a reclaiming guest carrying its token: a new order, the old guest left to its reclaim', async () => {
    emulator.settings.reclaimDelayMs = 120_000;
    const inputs = await checked('again');
    const token = String(inputs.creationToken);
    // What an unfinished create leaves (its token, not owned), then cancelled.
    const leftover = await guests.createInstance({
      hostname: String(inputs.hostname),
      domain: DOMAIN,
      cpus: 1,
      memory: 1024,
      os: 'UBUNTU_LATEST',
      datacenter: 'dal10',
      tags: [token],
    });
    await guests.waitForIdle(leftover.id, 10_000);
    await guests.cancelInstance(leftover.id);
    assert.ok(reclaiming(await view(leftover.id)));

    const again = await checked('again');
    assert.equal(again.adopts, undefined, 'the check announces no adoption');
    const before = orders();
    const result = await provider.create(again);
    assert.notEqual(result.id, String(leftover.id), 'not adopted');
    assert.equal(orders() - before, 1, 'one new order');
    const old = await view(leftover.id);
    assert.ok(reclaiming(old), 'the old guest is still reclaiming');
    assert.ok(!tagNames(old!).includes(OWNED_TAG), 'and was not claimed');
    assert.ok(tagNames((await view(result.id))!).includes(OWNED_TAG));
  });

  it('refresh reads a guest cancelled outside the stack as gone while it reclaims; the next create orders anew', async () => {
    emulator.settings.reclaimDelayMs = 120_000;
    const inputs = await checked('outside');
    const { id, outs } = await provider.create(inputs);
    await guests.cancelInstance(Number(id)); // by hand, in the portal or slcli
    assert.ok(reclaiming(await view(id)));
    assert.deepEqual(await provider.read(id, outs), {}, 'gone: the state drops it');

    const before = orders();
    const result = await provider.create(await checked('outside'));
    assert.notEqual(result.id, id, 'the reclaiming guest is not adopted');
    assert.equal(orders() - before, 1, 'one new order');
    assert.ok(reclaiming(await view(id)), 'the cancelled guest is left to its reclaim');
  });
});
