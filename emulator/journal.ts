/**
 * Durable storage for the emulator: an append-only JSON-lines journal (one line per write
 * transaction, fsync'd before the write is acknowledged, concurrent writers batched into one
 * write + fdatasync = group commit) plus a snapshot written atomically (temp file, fsync,
 * rename, directory fsync) when the journal grows past a threshold, after which the journal is
 * truncated. Every line and the snapshot carry a CRC-32 so corruption is an error at start, not
 * a silent reset. A torn last line (a crash in the middle of a write that was never
 * acknowledged) is cut off with a warning.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';

export type JournalOp =
  ['put', string, Record<string, unknown>] | ['del', string, number] | ['ctr', string, number];

export interface SnapshotState {
  counters: Record<string, number>;
  tables: Record<string, Record<string, unknown>[]>;
}

export interface LoadedData {
  snapshot: SnapshotState | null;
  /** Transactions logged after the snapshot, in order. */
  entries: JournalOp[][];
}

export interface JournalStats {
  entriesWritten: number;
  batches: number;
  bytes: number;
  compactions: number;
}

const SNAPSHOT_FILE = 'snapshot.json';
const JOURNAL_FILE = 'journal.jsonl';
const LOCK_FILE = 'emulator.lock';
const SNAPSHOT_FORMAT = 'svc-emulator-snapshot';
const SNAPSHOT_VERSION = 1;
const SNAPSHOT_HEAD = new RegExp(
  `^\\{"format":"${SNAPSHOT_FORMAT}","version":(\\d+),"seq":(\\d+),"crc":(\\d+),"state":`,
);
const LINE_HEAD = /^\{"s":(\d+),"c":(\d+),"o":/;

export class CorruptDataError extends Error {
  constructor(file: string, detail: string) {
    super(
      `svc-emulator: data file ${file} is corrupt (${detail}); refusing to start. ` +
        'Restore it from a backup or point --data-dir at an empty directory.',
    );
    this.name = 'CorruptDataError';
  }
}

interface Pending {
  line: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Journal {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private failed: Error | null = null;
  private seq: number;
  private snapshotProvider: (() => SnapshotState) | null = null;
  private compactRequested = false;
  private readonly counters: JournalStats = {
    entriesWritten: 0,
    batches: 0,
    bytes: 0,
    compactions: 0,
  };

  private constructor(
    private readonly dir: string,
    private fh: fs.FileHandle,
    seq: number,
    bytes: number,
    private readonly compactAfterBytes: number,
  ) {
    this.seq = seq;
    this.counters.bytes = bytes;
  }

  /** Locks the directory, reads snapshot + journal, and opens the journal for appending. */
  static async open(
    dir: string,
    options: { compactAfterBytes: number; warn: (message: string) => void },
  ): Promise<{ journal: Journal; data: LoadedData }> {
    await fs.mkdir(dir, { recursive: true });
    await acquireLock(dir);
    try {
      const { snapshot, snapshotSeq } = await readSnapshot(path.join(dir, SNAPSHOT_FILE));
      const journalPath = path.join(dir, JOURNAL_FILE);
      const { entries, lastSeq, validBytes, tornBytes } = await readJournal(
        journalPath,
        snapshotSeq,
      );
      if (tornBytes > 0) {
        options.warn(
          `svc-emulator: dropped a torn last journal line (${tornBytes} bytes) left by a crash ` +
            'during an unacknowledged write',
        );
        await fs.truncate(journalPath, validBytes);
      }
      const fh = await fs.open(journalPath, 'a');
      const journal = new Journal(
        dir,
        fh,
        Math.max(lastSeq, snapshotSeq),
        validBytes,
        options.compactAfterBytes,
      );
      return { journal, data: { snapshot, entries } };
    } catch (err) {
      await releaseLock(dir);
      throw err;
    }
  }

  /** The store supplies its full state for compaction. */
  setSnapshotProvider(provider: () => SnapshotState): void {
    this.snapshotProvider = provider;
  }

  /** Queues one transaction; resolves once it is on disk (fdatasync'd). */
  append(ops: JournalOp[]): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    this.seq += 1;
    const body = JSON.stringify(ops);
    const line = `{"s":${this.seq},"c":${crc32(body)},"o":${body}}\n`;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  stats(): JournalStats {
    return { ...this.counters };
  }

  /** Writes a snapshot now and truncates the journal (waits for queued writes first). */
  async compact(): Promise<void> {
    // Runs inside the flush loop, so no journal write can slip between snapshot and truncation.
    this.compactRequested = true;
    this.flushing ??= this.flush();
    await this.drain();
    if (this.failed) throw this.failed;
  }

  async close(): Promise<void> {
    await this.drain();
    await this.fh.close();
    await releaseLock(this.dir);
  }

  private async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    let batch: Pending[] = [];
    try {
      while (this.queue.length > 0 || this.compactRequested) {
        if (this.compactRequested || this.counters.bytes > this.compactAfterBytes) {
          this.compactRequested = false;
          // The in-memory state already holds every queued transaction, so the snapshot covers
          // them; their lines land in the fresh journal below and are skipped at load.
          await this.writeSnapshot();
        }
        batch = this.queue.splice(0);
        if (batch.length === 0) continue;
        const buf = Buffer.from(batch.map((p) => p.line).join(''), 'utf8');
        await writeAll(this.fh, buf);
        await this.fh.datasync();
        this.counters.bytes += buf.length;
        this.counters.batches += 1;
        this.counters.entriesWritten += batch.length;
        for (const p of batch) p.resolve();
        batch = [];
      }
    } catch (err) {
      // Nothing queued can be made durable any more: fail it all, and every later write.
      this.failed = new Error(`svc-emulator: journal write failed: ${(err as Error).message}`);
      for (const p of [...batch, ...this.queue.splice(0)]) p.reject(this.failed);
    } finally {
      this.flushing = null;
    }
  }

  private async writeSnapshot(): Promise<void> {
    if (!this.snapshotProvider) return;
    const stateJson = JSON.stringify(this.snapshotProvider());
    const text =
      `{"format":"${SNAPSHOT_FORMAT}","version":${SNAPSHOT_VERSION},"seq":${this.seq},` +
      `"crc":${crc32(stateJson)},"state":${stateJson}}`;
    const finalPath = path.join(this.dir, SNAPSHOT_FILE);
    const tmpPath = `${finalPath}.tmp`;
    const tmp = await fs.open(tmpPath, 'w');
    try {
      await writeAll(tmp, Buffer.from(text, 'utf8'));
      await tmp.sync();
    } finally {
      await tmp.close();
    }
    await fs.rename(tmpPath, finalPath);
    await syncDir(this.dir);
    // Only now is every journalled transaction inside a durable snapshot.
    await this.fh.truncate(0);
    await this.fh.datasync();
    this.counters.bytes = 0;
    this.counters.compactions += 1;
  }
}

async function writeAll(fh: fs.FileHandle, buf: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buf.length) {
    const { bytesWritten } = await fh.write(buf, offset, buf.length - offset);
    offset += bytesWritten;
  }
}

async function syncDir(dir: string): Promise<void> {
  const dh = await fs.open(dir, fsConstants.O_RDONLY);
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
}

async function readOptional(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function readSnapshot(
  file: string,
): Promise<{ snapshot: SnapshotState | null; snapshotSeq: number }> {
  const text = await readOptional(file);
  if (text === null) return { snapshot: null, snapshotSeq: 0 };
  const head = SNAPSHOT_HEAD.exec(text);
  if (!head || !text.endsWith('}'))
    throw new CorruptDataError(file, 'unrecognised snapshot header');
  if (Number(head[1]) !== SNAPSHOT_VERSION) {
    throw new CorruptDataError(file, `unsupported snapshot version ${head[1]}`);
  }
  const stateJson = text.slice(head[0].length, -1);
  if (crc32(stateJson) !== Number(head[3])) throw new CorruptDataError(file, 'checksum mismatch');
  let state: SnapshotState;
  try {
    state = JSON.parse(stateJson) as SnapshotState;
  } catch (err) {
    throw new CorruptDataError(file, (err as Error).message);
  }
  if (!state || typeof state.counters !== 'object' || typeof state.tables !== 'object') {
    throw new CorruptDataError(file, 'snapshot has no counters/tables');
  }
  return { snapshot: state, snapshotSeq: Number(head[2]) };
}

async function readJournal(
  file: string,
  snapshotSeq: number,
): Promise<{ entries: JournalOp[][]; lastSeq: number; validBytes: number; tornBytes: number }> {
  const text = await readOptional(file);
  const entries: JournalOp[][] = [];
  if (!text) return { entries, lastSeq: 0, validBytes: 0, tornBytes: 0 };
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  let lastSeq = 0;
  lines.forEach((line, index) => {
    const where = `line ${index + 1}`;
    const head = LINE_HEAD.exec(line);
    if (!head || !line.endsWith('}'))
      throw new CorruptDataError(file, `${where} is not a journal entry`);
    const seq = Number(head[1]);
    if (lastSeq !== 0 && seq !== lastSeq + 1) {
      throw new CorruptDataError(file, `${where} has sequence ${seq} after ${lastSeq}`);
    }
    const body = line.slice(head[0].length, -1);
    if (crc32(body) !== Number(head[2]))
      throw new CorruptDataError(file, `${where} checksum mismatch`);
    lastSeq = seq;
    if (seq <= snapshotSeq) return;
    if (entries.length === 0 && seq !== snapshotSeq + 1) {
      throw new CorruptDataError(
        file,
        `${where}: entries ${snapshotSeq + 1}..${seq - 1} are missing`,
      );
    }
    try {
      entries.push(JSON.parse(body) as JournalOp[]);
    } catch (err) {
      throw new CorruptDataError(file, `${where}: ${(err as Error).message}`);
    }
  });
  // A torn tail must look like the start of an entry; anything else is damage, not a crash.
  if (tail.length > 0 && !'{"s":'.startsWith(tail.slice(0, 5))) {
    throw new CorruptDataError(
      file,
      `trailing data after line ${lines.length} is not a journal entry`,
    );
  }
  const validBytes = Buffer.byteLength(text, 'utf8') - Buffer.byteLength(tail, 'utf8');
  return { entries, lastSeq, validBytes, tornBytes: Buffer.byteLength(tail, 'utf8') };
}

async function acquireLock(dir: string): Promise<void> {
  const lockPath = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fh = await fs.open(lockPath, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number((await readOptional(lockPath))?.trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(`svc-emulator: data directory ${dir} is in use by process ${owner}`);
      }
      if (owner === process.pid) {
        throw new Error(`svc-emulator: data directory ${dir} is already open in this process`);
      }
      await fs.rm(lockPath, { force: true }); // stale: its owner died (e.g. kill -9)
    }
  }
  throw new Error(`svc-emulator: could not lock data directory ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function releaseLock(dir: string): Promise<void> {
  await fs.rm(path.join(dir, LOCK_FILE), { force: true });
}
