/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import {
  startEmulator,
  CorruptDataError,
  type EmulatorHandle,
  type EmulatorOptions,
} from '../../emulator';
import { EmulatorClient } from '../support/emulator-client';
import { createGuest, sleep } from '../support/emulator-harness';

const ROOT = path.resolve(__dirname, '../..');
const dirs: string[] = [];
const running = new Set<EmulatorHandle>();
after(async () => {
  // A failed assertion must not leave a server (and its directory lock) behind.
  await Promise.all([...running].map((emu) => emu.close()));
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(tmpdir(), 'svc-emulator-test-'));
  dirs.push(dir);
  return dir;
}

function demoClient(emu: { url: string; accounts: EmulatorHandle['accounts'] }): EmulatorClient {
  return new EmulatorClient(emu.url, {
    username: emu.accounts.demo.username,
    apiKey: emu.accounts.demo.apiKey,
  });
}

async function start(dataDir: string, options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const emu = await startEmulator({ dataDir, provisioningDelayMs: 0, ...options });
  running.add(emu);
  return emu;
}

describe('durability across restarts', () => {
  it('keeps every acknowledged write and never reuses ids', async () => {
    const dir = await tempDir();
    let emu = await start(dir);
    let client = demoClient(emu);
    const kept = await createGuest(client, {
      hostname: 'kept',
      tagReferences: [{ tag: { name: 'Token-1' } }],
    });
    await client.call('Virtual_Guest', 'setTags', { id: kept.id, args: ['a,b'] });
    await client.call('Virtual_Guest', 'editObject', { id: kept.id, args: [{ notes: 'edited' }] });
    const last = await createGuest(client, { hostname: 'deleted' });
    await client.call('Virtual_Guest', 'deleteObject', { id: last.id });
    const [ticket] = await client.call<{ id: number }[]>('Account', 'getTickets', {
      mask: 'id',
      limit: 1,
    });
    await client.call('Ticket', 'addUpdate', {
      id: ticket.id,
      args: [{ entry: 'persisted update' }],
    });
    const [zone] = await client.call<{ id: number }[]>('Account', 'getDomains', { mask: 'id' });
    const record = await client.call<{ id: number }>('Dns_Domain_ResourceRecord', 'createObject', {
      args: [{ host: 'kept', data: '192.0.2.99', ttl: 300, type: 'a', domainId: zone.id }],
    });
    const token = await client.call<{ userId: number; hash: string }>(
      'User_Customer',
      'getPortalLoginToken',
      {
        args: ['demo', 'demo-password'],
        auth: null,
      },
    );
    await emu.close();

    emu = await start(dir, { seed: 'empty' });
    client = demoClient(emu);
    const guests = await client.call<Record<string, any>[]>('Account', 'getVirtualGuests', {
      mask: 'id, hostname, notes, tagReferences.tag.name',
    });
    assert.deepEqual(
      guests.map((g) => ({ ...g, tagReferences: g.tagReferences.map((r: any) => r.tag.name) })),
      [{ id: kept.id, hostname: 'kept', notes: 'edited', tagReferences: ['a', 'b'] }],
    );
    const updates = await client.call<{ entry: string }[]>('Ticket', 'getUpdates', {
      id: ticket.id,
      mask: 'entry',
    });
    assert.equal(updates.at(-1)?.entry, 'persisted update');
    assert.equal(
      (
        await client.call<{ data: string }>('Dns_Domain_ResourceRecord', 'getObject', {
          id: record.id,
        })
      ).data,
      '192.0.2.99',
    );
    const viaToken = await client.call<{ username: string }>('Account', 'getCurrentUser', {
      auth: { userId: token.userId, authToken: token.hash },
    });
    assert.equal(viaToken.username, 'demo');
    const next = await createGuest(client, { hostname: 'after-restart' });
    assert.ok(next.id > last.id, `id ${next.id} must not reuse ${last.id}`);
    assert.equal(emu.stats().objects.accounts, 2, 'the seed is not applied again');
    await emu.close();
  });

  it('computes provisioning from stored timestamps, so it survives a restart', async () => {
    const dir = await tempDir();
    let emu = await start(dir, { provisioningDelayMs: 700 });
    const guest = await createGuest(demoClient(emu), { hostname: 'slow' });
    await emu.close();
    emu = await start(dir, { provisioningDelayMs: 60_000 });
    const client = demoClient(emu);
    const during = await client.call<Record<string, unknown>>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'activeTransaction, provisionDate',
    });
    assert.ok(during.activeTransaction, 'still provisioning right after the restart');
    await sleep(750);
    const ready = await client.call<Record<string, unknown>>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'activeTransaction, provisionDate',
    });
    assert.equal(ready.activeTransaction, undefined);
    assert.equal(typeof ready.provisionDate, 'string');
    await emu.close();
  });

  it('compacts the journal into a snapshot and restores from both', async () => {
    const dir = await tempDir();
    let emu = await start(dir, { compactAfterBytes: 16 * 1024 });
    let client = demoClient(emu);
    const ids = [];
    for (let i = 0; i < 40; i += 1) ids.push((await createGuest(client, { hostname: `c${i}` })).id);
    const stats = emu.stats();
    assert.ok((stats.journal?.compactions ?? 0) >= 1, JSON.stringify(stats.journal));
    assert.ok((await fs.stat(path.join(dir, 'snapshot.json'))).size > 0);
    assert.ok((await fs.stat(path.join(dir, 'journal.jsonl'))).size < 32 * 1024);
    const res = await fetch(`${emu.adminUrl}/compact`, { method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal((await fs.stat(path.join(dir, 'journal.jsonl'))).size, 0);
    ids.push((await createGuest(client, { hostname: 'after-compact' })).id);
    await emu.close();
    emu = await start(dir);
    client = demoClient(emu);
    const guests = await client.call<{ id: number }[]>('Account', 'getVirtualGuests', {
      mask: 'id',
    });
    assert.deepEqual(
      guests.map((g) => g.id),
      ids,
    );
    await emu.close();
  });

  it('loses nothing when compaction runs between concurrent writes', async () => {
    const dir = await tempDir();
    let emu = await start(dir);
    let client = demoClient(emu);
    const writes = Array.from({ length: 40 }, (_, i) =>
      createGuest(client, { hostname: `cc${i}` }),
    );
    const compactions = Array.from({ length: 4 }, () =>
      fetch(`${emu.adminUrl}/compact`, { method: 'POST' }),
    );
    const ids = (await Promise.all(writes)).map((g) => g.id);
    for (const res of await Promise.all(compactions)) assert.equal(res.status, 200);
    await emu.close();
    emu = await start(dir);
    client = demoClient(emu);
    const guests = await client.call<{ id: number }[]>('Account', 'getVirtualGuests', {
      mask: 'id',
    });
    assert.deepEqual(
      guests.map((g) => g.id),
      [...ids].sort((a, b) => a - b),
    );
    await emu.close();
  });

  it('allows one emulator per data directory', async () => {
    const dir = await tempDir();
    const emu = await start(dir);
    await assert.rejects(start(dir), /in use|already open/);
    await emu.close();
    await (await start(dir)).close();
  });
});

describe('corrupt data', () => {
  async function dirWithData(): Promise<string> {
    const dir = await tempDir();
    const emu = await start(dir);
    const client = demoClient(emu);
    for (const name of ['one', 'two', 'three']) await createGuest(client, { hostname: name });
    await emu.close();
    return dir;
  }

  it('refuses to start on a damaged journal line', async () => {
    const dir = await dirWithData();
    const file = path.join(dir, 'journal.jsonl');
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    const index = lines.findIndex((l) => l.includes('"two"'));
    assert.ok(index > 0 && index < lines.length - 2, 'a line in the middle');
    lines[index] = lines[index].replace('"two"', '"twx"');
    await fs.writeFile(file, lines.join('\n'));
    await assert.rejects(
      start(dir),
      (err: Error) => err instanceof CorruptDataError && /checksum/.test(err.message),
    );
  });

  it('refuses to start on trailing garbage, but cuts off a torn last entry', async () => {
    const dir = await dirWithData();
    const file = path.join(dir, 'journal.jsonl');
    const intact = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, `${intact}garbage without newline`);
    await assert.rejects(start(dir), CorruptDataError);
    await fs.writeFile(file, `${intact}{"s":99,"c":1234,"o":[["put","guests",{"id"`);
    const warnings: string[] = [];
    const emu = await start(dir, { log: (line) => warnings.push(line) });
    assert.ok(
      warnings.some((w) => /torn/.test(w)),
      warnings.join('\n'),
    );
    const guests = await demoClient(emu).call<{ hostname: string }[]>(
      'Account',
      'getVirtualGuests',
      { mask: 'hostname' },
    );
    assert.deepEqual(
      guests.map((g) => g.hostname),
      ['one', 'two', 'three'],
    );
    await emu.close();
    assert.equal(await fs.readFile(file, 'utf8'), intact);
  });

  it('refuses to start on a damaged snapshot or a gap in the journal', async () => {
    const dir = await dirWithData();
    let emu = await start(dir);
    await fetch(`${emu.adminUrl}/compact`, { method: 'POST' });
    await createGuest(demoClient(emu), { hostname: 'four' });
    await emu.close();
    const snapshot = path.join(dir, 'snapshot.json');
    const text = await fs.readFile(snapshot, 'utf8');
    await fs.writeFile(snapshot, text.replace('"one"', '"oné"'));
    await assert.rejects(start(dir), CorruptDataError);
    await fs.rm(snapshot);
    await assert.rejects(start(dir), /missing/);
    emu = await start(await tempDir());
    await emu.close();
  });
});

describe('kill -9', () => {
  interface Child {
    proc: ChildProcess;
    url: string;
    accounts: EmulatorHandle['accounts'];
  }

  async function spawnEmulator(dir: string): Promise<Child> {
    const proc = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'emulator/cli.ts',
        '--port',
        '0',
        '--data-dir',
        dir,
        '--provisioning-delay',
        '0',
        '--json',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: proc.stdout! });
      rl.once('line', resolve);
      proc.once('exit', (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
    });
    const info = JSON.parse(line) as { url: string; accounts: EmulatorHandle['accounts'] };
    return { proc, url: info.url, accounts: info.accounts };
  }

  async function kill(child: Child): Promise<void> {
    const exited = new Promise((resolve) => child.proc.once('exit', resolve));
    child.proc.kill('SIGKILL');
    await exited;
  }

  it(
    'loses no acknowledged write when the process is killed mid-traffic',
    { timeout: 60_000 },
    async () => {
      const dir = await tempDir();
      const acknowledged: { guests: number[]; updates: string[] } = { guests: [], updates: [] };
      let ticketId = 0;
      for (let round = 0; round < 3; round += 1) {
        const child = await spawnEmulator(dir);
        const client = demoClient(child);
        if (!ticketId)
          ticketId = (
            await client.call<{ id: number }[]>('Account', 'getTickets', { mask: 'id', limit: 1 })
          )[0].id;
        // Writes keep flowing (8 at a time) while the process is killed after some are acknowledged.
        let stop = false;
        let acks = 0;
        const worker = async (w: number) => {
          for (let i = 0; !stop; i += 1) {
            const entry = `round ${round} worker ${w} update ${i}`;
            try {
              if (i % 2 === 0) {
                const guest = await createGuest(client, { hostname: `r${round}w${w}i${i}` });
                acknowledged.guests.push(guest.id);
              } else {
                await client.call('Ticket', 'addUpdate', { id: ticketId, args: [{ entry }] });
                acknowledged.updates.push(entry);
              }
              acks += 1;
            } catch {
              return; // the connection died with the process
            }
          }
        };
        let finished = 0;
        const workers = Array.from({ length: 8 }, (_, w) =>
          worker(w).finally(() => (finished += 1)),
        );
        while (acks < 40 + round * 20 && finished < workers.length) await sleep(2);
        assert.ok(finished < workers.length, 'writes failed before the kill');
        await kill(child);
        stop = true;
        await Promise.all(workers);
      }

      const child = await spawnEmulator(dir);
      const client = demoClient(child);
      const guests = await client.call<{ id: number }[]>('Account', 'getVirtualGuests', {
        mask: 'id',
      });
      const present = new Set(guests.map((g) => g.id));
      const lostGuests = acknowledged.guests.filter((id) => !present.has(id));
      assert.deepEqual(lostGuests, [], `${acknowledged.guests.length} acknowledged guests`);
      const updates = new Set(
        (
          await client.call<{ entry: string }[]>('Ticket', 'getUpdates', {
            id: ticketId,
            mask: 'entry',
          })
        ).map((u) => u.entry),
      );
      assert.deepEqual(
        acknowledged.updates.filter((e) => !updates.has(e)),
        [],
        `${acknowledged.updates.length} acknowledged updates`,
      );
      assert.ok(acknowledged.guests.length >= 60);
      await kill(child);
    },
  );
});
