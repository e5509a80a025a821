import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import type { Client } from '../../provider/client';
import { providerEnv, type Emulator } from '../support/provider-env';

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

describe('estimates against what the account is billed', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(100)));
  after(() => emulator?.close());

  it('for 20 configurations, what check prices (the BILLING line, the report, the pack) is what the billing item then bills, to the cent', async () => {
    for (const config of CONFIGS) {
      const { inputs, failures } = await provider.check({}, config);
      assert.deepEqual(failures, [], config.resourceName);
      const estimate = inputs as Bag;
      const { id, outs } = await provider.create(estimate);
      const guest = (await client.call('Virtual_Guest', 'getObject', {
        id: Number(id),
        mask: 'billingItem[hourlyRecurringFee,recurringFee]',
      })) as Billed;
      const what = `${config.resourceName} ${JSON.stringify(config)}`;
      assert.equal(estimate.estimatedMonthlyCost, Number(guest.billingItem.recurringFee), what);
      if (config.hourlyBillingFlag) {
        assert.equal(
          estimate.estimatedHourlyCost,
          Number(guest.billingItem.hourlyRecurringFee),
          what,
        );
      }
      assert.equal((outs as Bag).estimatedHourlyCost, estimate.estimatedHourlyCost, what);
      assert.equal((outs as Bag).estimatedMonthlyCost, estimate.estimatedMonthlyCost, what);
    }
  });
});
