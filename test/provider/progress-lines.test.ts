import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { BatchedWait } from '../../provider/managers/batched-wait';
import {
  aboutResource,
  protectSecrets,
  say,
  sayStatus,
  setLineSink,
} from '../../provider/framework/log';

describe('progress lines', () => {
  it('on stdout (the dynamic door), a wait prints a line when its stage moves, not every poll', () => {
    const log = mock.method(console, 'log', () => undefined);
    try {
      setLineSink();
      sayStatus('VirtualGuest "a" (id 1)', 'Assign Host', 1_000);
      sayStatus('VirtualGuest "a" (id 1)', 'Assign Host', 3_000);
      sayStatus('VirtualGuest "b" (id 2)', 'Assign Host', 3_000);
      sayStatus('VirtualGuest "a" (id 1)', 'Provision DNS', 5_000);
      sayStatus('VirtualGuest "a" (id 1)', 'Provision DNS', 7_000);
      assert.deepEqual(
        log.mock.calls.map((c) => c.arguments[0]),
        [
          '[svc] VirtualGuest "a" (id 1): Assign Host (1 s)',
          '[svc] VirtualGuest "b" (id 2): Assign Host (3 s)',
          '[svc] VirtualGuest "a" (id 1): Provision DNS (5 s)',
        ],
      );
    } finally {
      log.mock.restore();
    }
  });

  it('names the resource of the operation that said it, across awaits and timers, and redacts', async () => {
    const lines: { text: string; resource?: string; stage?: string }[] = [];
    setLineSink(({ text, resource, status }) =>
      lines.push({ text, resource, stage: status?.stage }),
    );
    try {
      protectSecrets(['k3y-progress-lines-0001']);
      await Promise.all([
        aboutResource('urn:a', async () => {
          await new Promise((r) => setTimeout(r, 5));
          sayStatus('A', 'stage with k3y-progress-lines-0001', 0);
        }),
        aboutResource('urn:b', async () => say('b done')),
      ]);
      say('outside');
      assert.deepEqual(lines, [
        { text: '[svc] b done', resource: 'urn:b', stage: undefined },
        {
          text: '[svc] A: stage with **** (0 s)',
          resource: 'urn:a',
          stage: 'stage with ****',
        },
        { text: '[svc] outside', resource: undefined, stage: undefined },
      ]);
    } finally {
      setLineSink();
    }
  });

  it("a shared wait's progress is said about each waiter's own resource", async () => {
    const lines: { text: string; resource?: string }[] = [];
    setLineSink(({ text, resource }) => lines.push({ text, resource }));
    try {
      let round = 0;
      // Two rounds find both objects not ready, the third finds them ready.
      const wait = new BatchedWait<{ id: number; ready: boolean }>(
        {
          list: async (ids) => (round++, ids.map((id) => ({ id, ready: round >= 3 }))),
          read: async (id) => ({ id, ready: false }),
          ready: (o) => o.ready,
          timeoutError: () => new Error('timeout'),
        },
        5,
      );
      const waiter = (urn: string, id: number) =>
        aboutResource(urn, () =>
          wait.wait(id, { timeoutMs: 5_000, onProgress: () => sayStatus(urn, 'waiting', 0) }),
        );
      await Promise.all([waiter('urn:first', 1), waiter('urn:second', 2)]);
      assert.ok(lines.length >= 4, `each waiter reported progress (${lines.length} lines)`);
      for (const line of lines)
        assert.equal(line.resource, line.text.split(' ')[1].replace(/:$/, ''));
    } finally {
      setLineSink();
    }
  });
});
