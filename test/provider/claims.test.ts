import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  claimScope,
  claimSent,
  inScope,
  isRelease,
  release,
  releaseUnanswered,
  answered,
} from '../../provider/framework/claims';
import { Operation } from '../../provider/framework/operation';

/** A create as a door runs it: an operation of its own that has answered once `work` settles. */
const answering = <T>(work: () => Promise<T>) => {
  const op = new Operation('create', { claims: true });
  return op.run(work).finally(() => op.answered());
};

/** A claim that records its release, and whether that release ran past the write gates. */
function recorded(what: string, released: string[]) {
  return {
    what,
    release: async () => {
      released.push(`${what}${isRelease() ? '' : ' (gated!)'}`);
    },
  };
}

describe('claims of creates that have not answered their engine', () => {
  it('a create that answered (returned or threw) leaves nothing to release', async () => {
    const released: string[] = [];
    await answering(async () => claimSent(recorded('guest 1', released)));
    await answering(async () => {
      claimSent(recorded('guest 2', released));
      throw new Error('failed after its order: the error carries the id');
    }).catch(() => undefined);
    await releaseUnanswered();
    assert.deepEqual(released, []);
  });

  it('the engine gone while a create waits: its claim is released, past the gates', async () => {
    const released: string[] = [];
    let finish = () => undefined as void;
    const waiting = answering(async () => {
      claimSent(recorded('guest 3', released));
      await new Promise<void>((resolve) => (finish = resolve));
    });
    await releaseUnanswered();
    assert.deepEqual(released, ['guest 3']);
    finish();
    await waiting;
  });

  it("a door's scope: claims of an early answer count; once answered they are the engine's", async () => {
    const released: string[] = [];
    const abandoned = claimScope();
    // A create and, after a Cancel, its early answer: both claim in the call's scope.
    await inScope(abandoned, async () => claimSent(recorded('guest 4', released)));
    await inScope(abandoned, async () => claimSent(recorded('guest 4 (early)', released)));
    const kept = claimScope();
    await inScope(kept, async () => claimSent(recorded('guest 5', released)));
    answered(kept);
    // A claim sent after its call answered (the original work of an early-answered create).
    await inScope(kept, async () => claimSent(recorded('guest 5 (late)', released)));
    release(abandoned);
    release(abandoned); // once
    await releaseUnanswered();
    assert.deepEqual(released.sort(), ['guest 4', 'guest 4 (early)']);
  });
});
