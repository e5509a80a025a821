import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliFixture, hasTag, writeCalls, type CliFixture } from './cli';
import { startPostgres, type Postgres } from './postgres';

// The stack's state in PostgreSQL (Pulumi's postgres:// backend), as a team keeps it: a throwaway
// cluster started here, two guests with an A record each through their life, the secrets in the
// rows checked, and two `pulumi up` of one stack at once.
describe('state in PostgreSQL', () => {
  let pg: Postgres;
  let f: CliFixture;
  const fleet = hasTag('fleet');

  before(async () => {
    pg = await startPostgres();
    f = await cliFixture({
      program: 'fleet',
      backendUrl: pg.url,
      config: { 'stacktest:count': { value: '2' }, 'stacktest:dns': { value: 'true' } },
    });
  });
  after(async () => {
    await f?.close();
    await pg?.stop();
  });

  it('up, a no-op up and refresh keep the state in the database in step with the account', async () => {
    await f.stack.up();
    const guests = await f.guests(fleet);
    assert.equal(guests.length, 2);
    assert.deepEqual(
      (await f.stateIds('VirtualGuest')).sort(),
      guests.map((g) => String(g.id)).sort(),
    );
    const rows = Number(await pg.sql('select count(*) from pulumi_state'));
    assert.ok(rows > 0, 'the state lives in the database');
    await f.stack.up();
    assert.deepEqual(Object.keys(await f.lastChanges()), ['same']);
    await f.stack.refresh();
    assert.deepEqual(Object.keys(await f.lastChanges()), ['same']);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 2, 'ordered once each');
  });

  it('the API key is encrypted in the database rows and absent from them in plain text', async () => {
    const blobs = await pg.blobs();
    assert.ok(
      blobs.some((blob) => blob.includes('"ciphertext"')),
      'the provider config is stored with the key encrypted',
    );
    assert.ok(
      !blobs.some((blob) => blob.includes(f.emulator.credentials.apiKey)),
      'no plain API key in any row',
    );
  });

  it('two ups of the same stack at once: the backend lock refuses one and nothing is ordered twice', async () => {
    await f.stack.setConfig({ 'stacktest:count': { value: '3' } });
    const args = ['up', '--yes', '--non-interactive', '--skip-preview'];
    const runs = await Promise.all([f.stack.spawn(args).done, f.stack.spawn(args).done]);
    const refused = runs.filter((r) => r.code !== 0);
    assert.equal(refused.length, 1, 'exactly one of the two ran');
    assert.match(`${refused[0].stdout}${refused[0].stderr}`, /locked/);
    assert.equal((await f.guests(fleet)).length, 3);
    assert.equal(
      writeCalls(f.emulator, 'Virtual_Guest.createObject'),
      3,
      'one order for the new guest',
    );
  });

  it('destroy leaves nothing in the account and an empty stack in the database', async () => {
    await f.stack.destroy();
    assert.equal((await f.guests(fleet)).length, 0);
    assert.deepEqual(await f.stateIds('VirtualGuest'), []);
  });
});
