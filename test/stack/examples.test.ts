import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, it } from 'node:test';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { cliFixture, writeCalls, type CliFixture } from './cli';

// The account-lookups example as a user runs it: every data-source helper, in both forms.
const fixtures: CliFixture[] = [];
after(() => Promise.all(fixtures.map((f) => f.close())));

it('account-lookups: up reads every lookup and writes nothing', async () => {
  const f = await cliFixture({ program: path.join(PACKAGE_ROOT, 'examples', 'account-lookups') });
  fixtures.push(f);
  await f.stack.up();
  const outputs = await f.stack.outputs();
  const account = f.emulator.accounts.demo;
  assert.equal(outputs.company, account.companyName);
  assert.ok((outputs.datacenters as string[]).includes('dal10'));
  assert.equal(typeof outputs.zoneRecords, 'number');
  assert.equal(typeof outputs.ipAddresses, 'number');
  assert.ok((outputs.openTickets as number) > 0, 'the demo account has tickets');
  assert.match(
    outputs.summary as string,
    new RegExp(
      `^${account.companyName}: \\d+ guest\\(s\\), ${outputs.openTickets} ticket\\(s\\), `,
    ),
  );
  assert.equal(
    outputs.newestGuest ?? null,
    null,
    'getVirtualGuest: the demo account has no guests',
  );
  const servers = (f.emulator.objects(account.username).hardware ?? []) as {
    hostname: string;
    domain: string;
  }[];
  assert.deepEqual(
    [...(outputs.hardware as string[])].sort(),
    servers.map((h) => `${h.hostname}.${h.domain}`).sort(),
  );
  assert.match(String(outputs.firstServerDatacenter), /^[a-z]{3}\d{2}$/);
  assert.equal(writeCalls(f.emulator), 0, 'lookups only');
});
