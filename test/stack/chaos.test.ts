import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeFailure, plan, runSequence } from './chaos';

// A small fixed set of the seeded chaos sequences (test/stack/chaos.ts): between them they kill
// the CLI during an up that replaces a guest and during a destroy, replace a guest with
// --replace and by an ordered change, all under faults around the commit of writes.
// `npm run bench -- chaos` runs 50 of them.
const SEEDS = [4, 5];

describe('chaos: seeded random operations under faults through the Pulumi CLI', () => {
  it('the fixed seeds cover kills, replacements and destroys', () => {
    const operations = new Set(SEEDS.flatMap((seed) => plan(seed).map((s) => s.operation)));
    for (const op of ['kill-up', 'kill-destroy', 'replace', 'change-ordered', 'destroy'] as const)
      assert.ok(operations.has(op), op);
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: no duplicate, no orphan, no id lost, nothing else touched`, async () => {
      const result = await runSequence(seed);
      assert.deepEqual(result.problems, [], describeFailure(result));
      assert.ok(result.extraUps <= 2);
      assert.ok(result.faultsInjected > 0, 'faults were injected');
    });
  }
});
