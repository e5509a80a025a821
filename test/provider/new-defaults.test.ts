import assert from 'node:assert/strict';
import { it } from 'node:test';
import { types } from '../../provider/framework/fields';
import { kindProvider } from '../../provider/framework/kind-provider';

// A stack made before an input existed: its default is no change, neither in the diff nor in
// the inputs check answers (the engine compares those with the old ones itself).
const thing = kindProvider(
  {
    name: { type: types.string, input: 'required', output: true, change: 'update' },
    // The input a later version added.
    wait: { type: types.boolean, input: 'optional', default: false, change: 'local' },
  },
  {
    describe: (props, id) => `Thing ${String(props.name)} (id ${id})`,
    fetch: async () => undefined,
    create: async () => ({ id: 5, object: {} }),
    delete: async () => undefined,
  },
);

it("a new input's default is no change for an object made before it existed", async () => {
  const made = { name: 'x' }; // the old inputs: no `wait`
  const { inputs } = await thing.check(made, { name: 'x' });
  assert.deepEqual(inputs, { name: 'x' });
  assert.deepEqual(await thing.diff('5', made, inputs!), { changes: false });
});

it('a new object, or one whose program sets the input, gets it as usual', async () => {
  assert.deepEqual((await thing.check({}, { name: 'x' })).inputs, { name: 'x', wait: false });
  const set = (await thing.check({ name: 'x' }, { name: 'x', wait: true })).inputs!;
  assert.deepEqual(set, { name: 'x', wait: true });
  const diff = await thing.diff('5', { name: 'x' }, set);
  assert.deepEqual(diff.fields, [{ name: 'wait', kind: 'add', replace: false }]);
  // Made with it: the default stays in the inputs, as it always did.
  const kept = { name: 'x', wait: false };
  assert.deepEqual((await thing.check(kept, { name: 'x' })).inputs, kept);
});

it('an imported object declared as it is: the defaults its state holds are no change', async () => {
  // An import stores its inputs without defaults; its outputs (what diff compares) hold them.
  const importedInputs = { name: 'x' };
  const state = { name: 'x', wait: false };
  const { inputs } = await thing.check(importedInputs, { name: 'x' });
  assert.deepEqual(await thing.diff('5', { ...state, ...importedInputs }, inputs!), {
    changes: false,
  });
  // A state holding another value than the default: leaving it out is a change back to it.
  const waiting = await thing.diff('5', { name: 'x', wait: true }, inputs!);
  assert.deepEqual(waiting.fields, [{ name: 'wait', kind: 'update', replace: false }]);
});
