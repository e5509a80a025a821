import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { configure } from '../../provider/framework/connection';
import { Client } from '../../provider/client';
import { providerEnv, stackConfig, type Emulator } from '../support/provider-env';

type Bag = Record<string, unknown>;

const CPUS = [1, 2, 4, 8, 16];
const MEMORY = [1024, 2048, 4096, 8192, 16384];
// Default prices and four location groups' (1.02, 1.05, 1.1 and 1.25 times).
const DATACENTERS = ['dal10', 'lon02', 'tor01', 'che01', 'sao01'];
const SYSTEMS = ['UBUNTU_LATEST', 'REDHAT_9_64', 'WIN_LATEST', 'DEBIAN_12_64'];
const SPEEDS = [100, 1000, 10];

/** 20 orders that differ in every priced field, hourly and monthly. */
const CONFIGS = Array.from({ length: 20 }, (_, i) => ({
  resourceName: `priced-${i}`,
  identity: `proj/dev/priced-${i}`,
  domain: 'estimates.example.com',
  startCpus: CPUS[i % 5],
  maxMemory: MEMORY[(i * 3) % 5],
  datacenter: DATACENTERS[(i * 2 + Math.floor(i / 5)) % 5],
  operatingSystemReferenceCode: SYSTEMS[i % 4],
  networkSpeed: SPEEDS[i % 3],
  hourlyBillingFlag: i % 2 === 0,
  localDiskFlag: i % 5 === 0,
  disks: i % 4 === 0 ? [100, 250] : i % 4 === 1 ? [25, 25, 2000] : [25],
}));

interface Billed {
  billingItem: { hourlyRecurringFee?: string; recurringFee: string };
}

// An account with negotiated prices: 20% off cores, 15% off memory, 10% off the rest.
const DISCOUNTS = { guest_core: 20, ram: 15, '*': 10 };

/** The provider runtime configured for `user`, as a new run on that account's stack would be. */
async function configureAccount(emulator: Emulator, user: { username: string; apiKey: string }) {
  await configure({
    config: stackConfig({
      'svc:endpointUrl': emulator.url,
      'svc:username': user.username,
      'svc:apiKey': user.apiKey,
    }),
  });
  return new Client({ username: user.username, apiKey: user.apiKey, endpointUrl: emulator.url });
}

/** Checks and creates each configuration; what check priced must be what the billing item bills. */
async function assertEstimatesBilled(client: Client, suffix: string): Promise<number[]> {
  const monthly: number[] = [];
  for (const config of CONFIGS) {
    const named = {
      ...config,
      resourceName: `${config.resourceName}${suffix}`,
      identity: `${config.identity}${suffix}`,
    };
    const { inputs, failures } = await provider.check({}, named);
    assert.deepEqual(failures, [], named.resourceName);
    const estimate = inputs as Bag;
    const { id, outs } = await provider.create(estimate);
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'billingItem[hourlyRecurringFee,recurringFee]',
    })) as Billed;
    const what = `${named.resourceName} ${JSON.stringify(config)}`;
    assert.equal(estimate.estimatedMonthlyCost, Number(guest.billingItem.recurringFee), what);
    if (config.hourlyBillingFlag) {
      assert.equal(
        estimate.estimatedHourlyCost,
        Number(guest.billingItem.hourlyRecurringFee),
        what,
      );
    }
    assert.equal(estimate.estimatedCostSource, 'account', what);
    for (const field of ['estimatedHourlyCost', 'estimatedMonthlyCost', 'estimatedCostSource'])
      assert.equal((outs as Bag)[field], estimate[field], `${what} ${field}`);
    monthly.push(estimate.estimatedMonthlyCost as number);
  }
  return monthly;
}

describe('estimates against what the account is billed', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(100)));
  after(() => emulator?.close());

  it('for 20 configurations at list prices and 20 with a negotiated discount, what check prices (the BILLING line, the report, the pack) is what the billing item then bills, to the cent, and is the account price', async () => {
    const list = await assertEstimatesBilled(client, '');
    const negotiated = await emulator.createAccount({
      username: 'negotiated',
      discounts: DISCOUNTS,
    });
    const discounted = await assertEstimatesBilled(
      await configureAccount(emulator, negotiated),
      '-d',
    );
    // The discount shows: every configuration costs this account less than the list price.
    discounted.forEach((cost, i) =>
      assert.ok(cost < list[i], `${CONFIGS[i].resourceName}: ${cost} < ${list[i]}`),
    );
  });

  it('prices at list price, and says so and why, when the API does not quote the order', async () => {
    await configureAccount(emulator, emulator.credentials);
    emulator.setFaults({ once: { method: 'generateOrderTemplate', fault: 'http-500', times: 50 } });
    // The default location, where the list price is the package's default price.
    const config = {
      ...CONFIGS[1],
      datacenter: 'dal10',
      resourceName: 'unquoted',
      identity: 'proj/dev/unquoted',
    };
    const { inputs, failures } = await provider.check({}, config);
    emulator.setFaults(null);
    assert.deepEqual(failures, []);
    const estimate = inputs as Bag;
    assert.match(
      String(estimate.estimatedCostSource),
      /^list: the API did not quote the order: TransportError\(500\)/,
    );
    const { id } = await provider.create(estimate);
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'billingItem[recurringFee]',
    })) as Billed;
    assert.equal(estimate.estimatedMonthlyCost, Number(guest.billingItem.recurringFee));
  });
});
