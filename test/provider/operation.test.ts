import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../provider/framework/connection';
import { AccountManager } from '../../provider/managers';
import { createOnce } from '../../provider/framework/exactly-once';
import { types } from '../../provider/framework/fields';
import { kindProvider } from '../../provider/framework/kind-provider';
import { CancelledWrite, Operation, boundedWait } from '../../provider/framework/operation';
import { sshKeyProvider } from '../../provider/kinds/ssh-key/provider';
import { virtualGuestProvider } from '../../provider/kinds/virtual-guest/provider';
import { freshEd25519 } from '../support/ssh-keys';
import { checkedGuest, declaredGuest, providerEnv, type Emulator } from '../support/provider-env';

/** The lifecycle request every kind receives: its deadline, its cancel, its writes' gate. */
describe('a lifecycle operation (framework/operation.ts) against the emulator', () => {
  let emulator: Emulator;
  const calls = (method: string) => emulator.stats().calls[method] ?? 0;
  before(async () => {
    ({ emulator } = await providerEnv(5_000));
  });
  after(() => emulator.close());

  it("a wait is bounded by the engine's deadline, less a margin, never below one look", () => {
    assert.equal(boundedWait(undefined, 60_000), 60_000, 'no request: the kind’s own limit');
    const now = Date.now();
    const near = { signal: new AbortController().signal, deadline: now + 10_000 };
    const bounded = boundedWait(near, 60_000);
    assert.ok(bounded <= 9_000 && bounded > 8_000, `${bounded}`);
    assert.equal(boundedWait(near, 5_000), 5_000, 'a shorter own limit stays');
    const past = { signal: near.signal, deadline: now - 1_000 };
    assert.equal(boundedWait(past, 60_000), 600);
  });

  it('a create past its deadline fails as its wait times out, with the guest kept, one order', async () => {
    const orders = calls('Virtual_Guest.createObject');
    const inputs = await checkedGuest(
      declaredGuest('deadline', 'op.example.com', { readyTimeoutMinutes: 30 }),
    );
    const op = new Operation('create of deadline', { timeoutSeconds: 2, claims: true });
    const started = Date.now();
    const err = await op
      .run(() => virtualGuestProvider.create(inputs, op))
      .then(
        () => assert.fail('a 5 s provisioning ended within a 2 s deadline'),
        (e: Error & { id?: string }) => e,
      );
    op.answered();
    assert.ok(Date.now() - started < 4_000, 'ended by the deadline, not by readyTimeoutMinutes');
    assert.match(err.message, /was not ready after \d+ s/);
    assert.ok(err.id, 'the error carries the id: the engine keeps the guest');
    assert.equal(calls('Virtual_Guest.createObject') - orders, 1);
  });

  it('a cancelled operation sends no write; an early answer may, an abandoned one never', async () => {
    const c = connect();
    const created = () =>
      sshKeyProvider.create({ label: `op-${Date.now()}`, publicKey: freshEd25519(), notes: '' });
    const before = calls('Security_Ssh_Key.createObject');

    const op = new Operation('create of a key');
    op.cancel('the engine cancelled');
    const refused = await op.run(created).catch((e: unknown) => e);
    assert.ok(refused instanceof CancelledWrite, String(refused));
    assert.match((refused as Error).message, /was not sent: the engine cancelled/);
    assert.equal(calls('Security_Ssh_Key.createObject'), before, 'nothing reached the API');
    assert.equal(op.writes, 0);

    // The early answer of a cancelled create (it claims what exists) may write.
    const early = Object.assign(Object.create(op) as Operation, { mayWriteAfterCancel: true });
    assert.equal(early.refusal(), undefined);
    op.abandon('the engine is gone');
    assert.equal(early.refusal(), 'the engine is gone', 'abandoned: not even the early answer');

    // Reads are never gated; an operation that is not cancelled writes.
    await op.run(() => c.use(AccountManager).getAccount('id'));
    const live = new Operation('create of a key');
    await live.run(created);
    assert.equal(calls('Security_Ssh_Key.createObject'), before + 1);
    assert.equal(live.writes, 1);
    assert.equal(live.touched.size, 1, 'the id its write made');
  });

  it('what a createOnce made is known to the operation, found after a lost answer too', async () => {
    const op = new Operation('create of an order');
    const lost = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    await op.run(async () => {
      await createOnce({
        what: 'an order',
        write: async () => ({ orderId: 7, placed: 41 }),
        find: async () => undefined,
        windowMs: 1_000,
        nextRun: '',
        madeId: (receipt) => receipt.placed,
      });
      await createOnce({
        what: 'a lost one',
        write: () => Promise.reject(lost),
        find: async () => ({ id: 42 }),
        windowMs: 1_000,
        nextRun: '',
      });
    });
    assert.deepEqual([...op.touched].sort(), [41, 42]);
  });

  it('a create whose outputs cannot be read after it made the object keeps its id', async () => {
    const made = kindProvider(
      {
        name: { type: types.string, input: 'required', output: true },
        marked: { type: types.boolean, output: true },
      },
      {
        describe: (state, id) => `Thing ${state.name} (id ${id})`,
        fetch: async () => undefined,
        create: async () => ({ id: 5, object: {}, outs: { marked: true } }),
        delete: async () => undefined,
        outputs: async () => {
          throw new Error('the price call failed');
        },
      },
    );
    const err = (await made.create({ name: 'x' }).catch((e: unknown) => e)) as Error & {
      id?: string;
      properties?: Record<string, unknown>;
    };
    assert.equal(err.id, '5', 'the engine records what was made');
    assert.deepEqual(err.properties, { name: 'x', marked: true });
    assert.match(err.message, /Thing x \(id 5\) was made, then reading its outputs failed/);
  });
});
