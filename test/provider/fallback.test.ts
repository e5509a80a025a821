import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { setLineSink } from '../../provider/framework/log';
import { describeFallbacks, type BilledCost } from '../../provider/kinds/virtual-guest/billing';
import type { GuestInputs } from '../../provider/kinds/virtual-guest/inputs';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { checkedGuest, declaredGuest, providerEnv, type Emulator } from '../support/provider-env';
import { VirtualGuestManager } from '../../provider/managers';

type Bag = Record<string, unknown>;
interface Seen {
  id: number;
  datacenter: { name: string };
  tagReferences: { tag: { name: string } }[];
}

const DOMAIN = 'fallback.example.com';
const declared = (name: string, extra: Bag = {}): Bag =>
  declaredGuest(name, DOMAIN, {
    datacenter: undefined,
    datacenters: ['dal10', 'dal12', 'wdc07'],
    ...extra,
  });

// `datacenters`: the datacenters a guest may be ordered in, tried in turn while the API answers
// that one has no room (the emulator's datacenterCapacity), with one creation token.
describe('VirtualGuest datacenters: one order, in the first datacenter with room', () => {
  let emulator: Emulator;
  let guests: VirtualGuestManager;
  const lines: string[] = [];

  before(async () => {
    let client;
    ({ emulator, client } = await providerEnv(300));
    guests = new VirtualGuestManager(client);
    setLineSink((line) => lines.push(line.text));
  });
  afterEach(() => {
    emulator.settings.datacenterCapacity = undefined;
    emulator.settings.reclaimDelayMs = 0;
    emulator.setFaults(null);
  });
  after(() => {
    setLineSink();
    return emulator?.close();
  });

  const checked = (name: string, extra: Bag = {}) => checkedGuest(declared(name, extra));
  /** The emulator's guests carrying `token` (its own view, not the provider's). */
  const carrying = (token: unknown) =>
    (emulator.objects(emulator.credentials.username).virtualGuests as unknown as Seen[]).filter(
      (g) => g.tagReferences.some((ref) => ref.tag.name === token),
    );
  const orders = () => emulator.stats().calls['Virtual_Guest.createObject'] ?? 0;
  const failuresOf = async (extra: Bag) =>
    Object.fromEntries(
      ((await provider.check({}, declared('bad', extra))).failures ?? []).map((f) => [
        f.property,
        f.reason,
      ]),
    );

  it('check refuses both or neither of datacenter and datacenters, and bad lists, naming the field and rule', async () => {
    const sent = orders();
    assert.match(
      (await failuresOf({ datacenter: 'dal10' })).datacenters,
      /give either datacenter or datacenters, not both/,
    );
    assert.match(
      (await failuresOf({ datacenters: undefined })).datacenter,
      /datacenter \(one datacenter\) or datacenters .* is required/,
    );
    assert.match(
      (await failuresOf({ datacenters: [] })).datacenters,
      /datacenters must name at least one datacenter/,
    );
    assert.match(
      (await failuresOf({ datacenters: ['dal10', 'dal12', 'dal10'] })).datacenters,
      /datacenters must name each datacenter once, got "dal10"/,
    );
    assert.match(
      (await failuresOf({ datacenters: ['dal10', 'dal 12'] })).datacenters,
      /datacenters\[1\] "dal 12" must be a datacenter name such as dal10/,
    );
    assert.match(
      (await failuresOf({ datacenters: ['dal10', 'xyz99'] })).datacenters,
      /datacenters "xyz99" is not a known datacenter/,
    );
    assert.equal(orders(), sent, 'nothing ordered');
  });

  it('preview prices the first choice and names the others', async () => {
    lines.length = 0;
    await checked('priced', { datacenters: ['dal10', 'tor01'] });
    const line = lines.find((l) => l.includes('BILLING create VirtualGuest "priced"'));
    assert.match(String(line), /in dal10, else tor01; hourly, \$[\d.]+\/hour/);
    assert.match(String(line), /\(priced in dal10; if it falls back: tor01 \$[\d.]+\/hour/);
    await checked('same', { datacenters: ['dal10', 'dal12'] });
    assert.ok(lines.some((l) => /in dal10, else dal12;.*the same in dal12\)/.test(l)));
  });

  it('a fallback the API will not quote is said in the line, and does not stop the create', async () => {
    const first = { estimatedHourlyCost: 0.04, estimatedMonthlyCost: 29.2 } as BilledCost;
    const inputs = { datacenters: ['dal10', 'dal12', 'sao01'] } as unknown as GuestInputs;
    const said = await describeFallbacks(inputs, first, async (datacenter) => {
      if (datacenter === 'sao01') throw new Error('SoftLayer_Exception_Public: not sold there');
      return first;
    });
    assert.equal(
      said,
      ' (priced in dal10; if it falls back: sao01 cannot be priced (SoftLayer_Exception_Public: not sold there))',
    );
  });

  it('a full first datacenter: the next is ordered, once, and the outputs say where', async () => {
    emulator.settings.datacenterCapacity = { dal10: 0 };
    const inputs = await checked('full-first');
    const sent = orders();
    const { id, outs } = await provider.create(inputs);
    assert.equal(outs.datacenter, 'dal12');
    assert.deepEqual(outs.datacenters, ['dal10', 'dal12', 'wdc07']);
    const made = carrying(inputs.creationToken);
    assert.deepEqual(
      made.map((g) => [String(g.id), g.datacenter.name]),
      [[id, 'dal12']],
    );
    assert.equal(orders() - sent, 2, 'one refused order in dal10, one in dal12');
    // Read back (refresh): still there, `datacenter` where it is, no change to make.
    const read = await provider.read(id, outs);
    assert.equal(read.props?.datacenter, 'dal12');
    assert.equal((read.inputs as Bag).datacenter, undefined, 'an output only');
    assert.deepEqual(await provider.diff(id, read.props!, inputs), { changes: false });
    // A new list that still holds dal12 records it; one without dal12 replaces the guest.
    const kept = await provider.diff(id, outs, { ...inputs, datacenters: ['dal12', 'wdc07'] });
    assert.deepEqual(kept.replaces, []);
    assert.notEqual(kept.changes, false);
    const moved = await provider.diff(id, outs, { ...inputs, datacenters: ['wdc07'] });
    assert.deepEqual(moved.replaces, ['datacenters']);
    const single = await provider.diff(id, outs, {
      ...inputs,
      datacenters: undefined,
      datacenter: 'dal12',
    });
    assert.deepEqual(single.replaces, [], 'the guest is in dal12: recorded, not replaced');
    await provider.delete(id, outs);
  });

  it('an answer lost after the order landed in the second datacenter: found by its token, no second order', async () => {
    emulator.settings.datacenterCapacity = { dal10: 0 };
    const inputs = await checked('lost-second');
    // The first createObject (dal10, refused) passes; the answer of the second (dal12) is lost.
    emulator.setFaults({
      once: [
        { service: 'Virtual_Guest', method: 'createObject', fault: 'latency', delayMs: 1 },
        { service: 'Virtual_Guest', method: 'createObject', fault: 'lose-response' },
      ],
    });
    const sent = orders();
    const { id, outs } = await provider.create(inputs);
    assert.equal(orders() - sent, 2, 'dal10 refused, dal12 ordered; wdc07 never');
    assert.equal(outs.datacenter, 'dal12');
    assert.deepEqual(
      carrying(inputs.creationToken).map((g) => [String(g.id), g.datacenter.name]),
      [[id, 'dal12']],
    );
    await provider.delete(id, outs);
  });

  it("a killed run's order in a later choice is adopted by the next create; one outside the choices is not", async () => {
    const inputs = await checked('earlier');
    const token = String(inputs.creationToken);
    const landed = await guests.createInstance({
      ...{ hostname: String(inputs.hostname), domain: DOMAIN, cpus: 1, memory: 1024 },
      os: 'UBUNTU_LATEST',
      datacenter: 'wdc07',
      tags: [token],
    });
    const sent = orders();
    const { id, outs } = await provider.create(inputs);
    assert.equal(id, String(landed.id), 'the earlier order is adopted');
    assert.equal(outs.datacenter, 'wdc07');
    assert.equal(orders(), sent, 'no second order');
    await provider.delete(id, outs);

    const other = await checked('elsewhere');
    const stray = await guests.createInstance({
      ...{ hostname: String(other.hostname), domain: DOMAIN, cpus: 1, memory: 1024 },
      os: 'UBUNTU_LATEST',
      datacenter: 'lon06',
      tags: [String(other.creationToken)],
    });
    await assert.rejects(
      provider.create(other),
      new RegExp(
        `guest ${stray.id} was ordered by an earlier unfinished create .*datacenter "lon06" \\(declared "dal10" or "dal12" or "wdc07"\\)`,
      ),
    );
    assert.equal(orders(), sent + 1, 'nothing ordered');
  });

  it('every datacenter full: the error names each one and the fault, and nothing is ordered', async () => {
    emulator.settings.datacenterCapacity = { dal10: 0, dal12: 0, wdc07: 0 };
    const inputs = await checked('all-full');
    await assert.rejects(provider.create(inputs), (err: Error) => {
      for (const dc of ['dal10', 'dal12', 'wdc07'])
        assert.match(
          err.message,
          new RegExp(`${dc} \\(Svc_Exception_Virtual_Host_Pool_InsufficientCapacity: `),
        );
      assert.match(
        err.message,
        /no datacenter it may be ordered in has room, so nothing was ordered/,
      );
      return true;
    });
    assert.deepEqual(carrying(inputs.creationToken), []);
  });

  it('a single datacenter that is full fails as before, with the fault', async () => {
    emulator.settings.datacenterCapacity = { dal13: 0 };
    const inputs = await checked('single', { datacenters: undefined, datacenter: 'dal13' });
    await assert.rejects(provider.create(inputs), /dal13 \(Svc_Exception_Virtual_Host_Pool/);
    assert.deepEqual(carrying(inputs.creationToken), []);
  });
});
