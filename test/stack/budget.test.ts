import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { writeCalls, type CliFixture } from './cli';
import { frontDoors, ownerFixtures, ownerUrn } from './front-door';

/** The pack as the package ships it, and its analyzer as npm installs its command. */
const PACK = path.join(PACKAGE_ROOT, 'policy');
const binDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-policy-bin-'));
fs.writeFileSync(
  path.join(binDir, 'pulumi-analyzer-policy-svc'),
  `#!/bin/sh\nexec node "${path.join(PACKAGE_ROOT, 'dist', 'policy', 'main.js')}" "$@"\n`,
  { mode: 0o755 },
);
after(() => fs.rmSync(binDir, { recursive: true, force: true }));

interface PolicyEvent {
  resourceUrn?: string;
  message: string;
  policyName: string;
  enforcementLevel: string;
}

/**
 * Runs `pulumi <command> --policy-pack <pack> --policy-pack-config budget.json` with the budget
 * given, and answers its exit code and the policy events of its engine event log.
 */
async function withBudget(f: CliFixture, command: string[], budget: object) {
  const config = path.join(f.dir, 'budget.json');
  fs.writeFileSync(config, JSON.stringify({ 'svc-budget': budget }));
  const log = path.join(f.dir, `events-${Date.now()}.json`);
  const run = await f.stack.spawn([
    ...command,
    '--non-interactive',
    '--policy-pack',
    PACK,
    '--policy-pack-config',
    config,
    '--event-log',
    log,
  ]).done;
  const output = `${run.stdout}\n${run.stderr}`;
  if (!fs.existsSync(log))
    throw new Error(`pulumi ${command.join(' ')} wrote no event log:\n${output}`);
  const events = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      const event = JSON.parse(line) as { policyEvent?: PolicyEvent };
      return event.policyEvent ? [event.policyEvent] : [];
    });
  return { code: run.code, events, output };
}

const names = (count: number) => Array.from({ length: count }, (_, i) => `g${i}`);
const billedMonthly = async (f: CliFixture) => {
  const guests = (await f.client.call('Account', 'getVirtualGuests', {
    mask: 'id,billingItem.recurringFee',
  })) as { billingItem: { recurringFee: string } }[];
  return guests.map((g) => Number(g.billingItem.recurringFee));
};

for (const door of frontDoors()) {
  describe(`the svc-budget policy pack through the CLI (${door.name})`, () => {
    const fixture = ownerFixtures(door);

    it('a 21st guest over a mandatory monthly total fails preview with one violation and orders nothing; advisory warns and up orders it', async () => {
      const f = await fixture(
        { guests: names(20) },
        {
          env: {
            PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
            PULUMI_DEBUG_COMMANDS: 'true', // --event-log: the engine's events, policy events among them
          },
        },
      );
      const misspelt = await withBudget(f, ['preview'], { maxMonthlyTotals: 1 });
      assert.notEqual(misspelt.code, 0, 'a misspelt limit must not pass every plan');
      assert.match(misspelt.output, /svc-budget: unknown setting maxMonthlyTotals/);
      await f.stack.up();
      const fees = await billedMonthly(f);
      assert.equal(fees.length, 20);
      const total = Math.round(fees.reduce((a, b) => a + b, 0) * 100) / 100;
      const limit = Math.round((total + fees[0] / 2) * 100) / 100; // room for half a guest
      const orders = writeCalls(f.emulator, 'Virtual_Guest.createObject');

      await door.setOwner(f, { guests: names(21) });
      const mandatory = await withBudget(f, ['preview'], {
        enforcementLevel: 'mandatory',
        maxMonthlyTotal: limit,
      });
      assert.notEqual(mandatory.code, 0, 'preview fails on the mandatory violation');
      assert.equal(mandatory.events.length, 1, mandatory.output);
      const [violation] = mandatory.events;
      assert.equal(violation.policyName, 'svc-budget');
      assert.equal(violation.enforcementLevel, 'mandatory');
      assert.equal(violation.resourceUrn, ownerUrn(door, 'test', 'VirtualGuest', 'g20'));
      const after21 = (total + fees[0]).toFixed(2);
      assert.match(
        violation.message,
        new RegExp(
          `monthly total becomes \\$${after21} \\(\\$${total.toFixed(2)} before the plan\\), over maxMonthlyTotal \\$${limit.toFixed(2)}`,
        ),
      );
      assert.equal((await billedMonthly(f)).length, 20, 'no guest ordered');
      assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), orders);

      const advisory = await withBudget(f, ['up', '--yes', '--skip-preview'], {
        enforcementLevel: 'advisory',
        maxMonthlyTotal: limit,
      });
      assert.equal(advisory.code, 0, advisory.output);
      assert.deepEqual(
        advisory.events.map((e) => [e.enforcementLevel, e.resourceUrn]),
        [['advisory', ownerUrn(door, 'test', 'VirtualGuest', 'g20')]],
      );
      assert.equal((await billedMonthly(f)).length, 21, 'up ordered the 21st guest');
      assert.equal((await f.stateIds('VirtualGuest')).length, 21);

      // Over the limit already, a plan that changes no cost passes.
      const unchanged = await withBudget(f, ['preview'], {
        enforcementLevel: 'mandatory',
        maxMonthlyTotal: limit,
        maxIncreasePercent: 0,
      });
      assert.equal(unchanged.code, 0, unchanged.output);
      assert.deepEqual(unchanged.events, []);
    });
  });
}
