import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { AuditReport } from '../../commands/audit';
import type { Reconciliation } from '../../commands/billing-reconcile';
import { SecurityGroupManager, VirtualGuestManager } from '../../provider/managers';
import { cliFixture, hasTag, pulumiSvc, writeCalls, type CliFixture } from './cli';

// `npx pulumi-svc audit --json` in the project, as a user runs it, on an account where orphans,
// a vanished guest, drift and a killed create's security group were made on purpose: it must find
// exactly those.
describe('pulumi-svc audit', () => {
  let f: CliFixture;
  before(async () => {
    f = await cliFixture({ program: 'fleet', config: { 'stacktest:count': { value: '3' } } });
    await f.stack.up();
  });
  after(() => f?.close());

  const runCli = async <T>(...args: string[]): Promise<T> =>
    JSON.parse(await pulumiSvc(f, args)) as T;
  const runAudit = (): Promise<AuditReport> => runCli<AuditReport>('audit', '--json');
  const idOf = async (name: string) =>
    Number((await f.stack.resources()).find((r) => r.urn.endsWith(`::${name}`))!.id);

  it('finds nothing on an account whose guests are all in the stack as declared', async () => {
    const report = await runAudit();
    assert.equal(report.stacks.length, 1);
    assert.deepEqual(
      [report.orphans, report.gone, report.drift, report.leftovers],
      [[], [], [], []],
    );
  });

  it('finds exactly the orphans, the vanished guest, the drift and the leftover made on purpose', async () => {
    const [g0, g1, g2] = [await idOf('g0'), await idOf('g1'), await idOf('g2')];
    await f.client.call('Virtual_Guest', 'deleteObject', { id: g0 }); // gone
    await f.client.call('Virtual_Guest', 'editObject', { id: g2, args: [{ hostname: 'moved' }] });
    // Resized outside Pulumi: one upgrade order to 2 CPUs, which bills more from then on.
    const vgm = new VirtualGuestManager(f.client);
    await vgm.upgrade(
      await vgm.priceUpgrade(g2, { cpus: 1, memory: 1024, disks: [25] }, { cpus: 2 }),
    );
    await vgm.waitForUpgrade(g2, { cpus: 2 }, { timeoutMs: 60_000 });
    await f.stack.run(['state', 'delete', await f.stack.urnOf('g1'), '--yes']); // orphaned by hand

    // An up killed after its order went out: a billed guest that no state holds.
    await f.stack.setConfig({ 'stacktest:count': { value: '4' } });
    const ordered = writeCalls(f.emulator, 'Virtual_Guest.createObject');
    const run = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
    while (writeCalls(f.emulator, 'Virtual_Guest.createObject') === ordered) await sleep(100);
    process.kill(run.child.pid!, 'SIGKILL');
    await run.done;
    await f.stack.run(['cancel', '--yes']);
    // What the killed up ordered (g3, and g1 again, which the program still declares): no state has it.
    const killed = (await f.guests(hasTag('fleet')))
      .map((g) => g.id)
      .filter((id) => ![g0, g1, g2].includes(id));
    assert.ok(killed.length >= 1, 'the killed up ordered a guest');
    // A security group a killed create left: its creation token still stands in its description.
    const left = await new SecurityGroupManager(f.client).createGroup({
      name: 'killed',
      description: 'pulumi-svc-0123456789abcdef01234567',
    });

    const report = await runAudit();
    assert.deepEqual(report.orphans.map((o) => o.id).sort(), [g1, ...killed].sort());
    assert.deepEqual(
      report.orphans
        .filter((o) => o.unfinished)
        .map((o) => o.id)
        .sort(),
      killed.sort(),
      'the killed up left unfinished creates; g1 had been handed to the state',
    );
    assert.deepEqual(report.leftovers, [{ kind: 'SecurityGroup', id: left.id, name: 'sg-killed' }]);
    assert.ok(
      !report.unowned.some((e) => e.id === String(left.id)),
      'a leftover is never offered for adoption',
    );
    assert.ok(
      report.orphans.every((o) => o.hourlyCost! > 0),
      'each orphan with its hourly cost',
    );
    assert.deepEqual(
      report.gone.map((g) => [g.urn.split('::').pop(), g.id]),
      [['g0', String(g0)]],
    );
    assert.deepEqual(
      report.drift.map((d) => [d.id, d.changes]),
      [[g2, { hostname: [report.drift[0].changes.hostname[0], 'moved'], startCpus: [1, 2] }]],
    );
    assert.notEqual(report.drift[0].changes.hostname[0], 'moved');
    // Its cost drift: what the state recorded against what its billing item bills now.
    const recorded = (await f.stack.resources()).find((r) => r.id === String(g2))!.outputs!;
    const billed = (await f.client.call('Virtual_Guest', 'getObject', {
      id: g2,
      mask: 'billingItem.recurringFee',
    })) as { billingItem: { recurringFee: string } };
    const { cost } = report.drift[0];
    assert.ok(cost, 'the resize shows as cost drift');
    assert.equal(cost.recordedMonthly, recorded.estimatedMonthlyCost);
    assert.equal(cost.billedMonthly, Number(billed.billingItem.recurringFee));
    assert.ok(cost.monthlyDelta > 0, 'two CPUs bill more');
    const reconciled = await runCli<Reconciliation>('billing', '--reconcile', '--json');
    assert.deepEqual(reconciled.differences, [
      { stack: reconciled.stacks[0], name: 'g2', id: g2, ...cost },
    ]);
    assert.equal(reconciled.monthlyDelta, cost.monthlyDelta);
  });
});
