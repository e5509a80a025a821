import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { configure, freeWriteWindowMs, outcomeWindowMs } from '../../provider/framework/connection';
import { stackConfig } from '../support/provider-env';

// svc:outcomeWindow goes through the same settings rules as the client's own settings: stack
// config over the environment, a bad value an error naming where it came from, before any call.
describe('svc:outcomeWindow', () => {
  const saved = process.env.SVC_OUTCOME_WINDOW;
  after(() => {
    if (saved === undefined) delete process.env.SVC_OUTCOME_WINDOW;
    else process.env.SVC_OUTCOME_WINDOW = saved;
  });

  it('is 300 s unless stack config or SVC_OUTCOME_WINDOW says otherwise, in that order', async () => {
    delete process.env.SVC_OUTCOME_WINDOW;
    await configure({ config: stackConfig({}) });
    assert.equal(outcomeWindowMs(), 300_000);
    assert.equal(freeWriteWindowMs(), 10_000, 'a write that bills nothing: at most 10 s');
    process.env.SVC_OUTCOME_WINDOW = '20';
    assert.equal(outcomeWindowMs(), 20_000);
    await configure({ config: stackConfig({ 'svc:outcomeWindow': '4' }) });
    assert.equal(outcomeWindowMs(), 4_000);
    assert.equal(freeWriteWindowMs(), 4_000, 'never longer than the window itself');
    await configure({ config: stackConfig({ 'svc:outcomeWindow': '0' }) });
    assert.equal(outcomeWindowMs(), 0);
  });

  it('refuses a bad value, naming where it came from, when the provider is configured', async () => {
    await assert.rejects(
      configure({ config: stackConfig({ 'svc:outcomeWindow': 'soon' }) }),
      /^SvcError: Bad outcome window from stack config svc:outcomeWindow: expected a number \(0 or more\) of seconds$/,
    );
    process.env.SVC_OUTCOME_WINDOW = '-5';
    await assert.rejects(
      configure({ config: stackConfig({}) }),
      /Bad outcome window from SVC_OUTCOME_WINDOW: expected a number \(0 or more\) of seconds/,
    );
  });
});
