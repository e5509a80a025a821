import { createHash } from 'node:crypto';
import { mkdir, readdir, rmdir, unlink, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { Transport } from './call';

/**
 * At most `perSecond` calls a second for one account from this machine, across processes: ten
 * `pulumi up` running at once are ten provider processes, and the API's limit counts them
 * together. Time is cut into slots 1/perSecond s apart; a call takes the first free slot by
 * creating the slot's file exclusively in a directory shared by every client of the same endpoint
 * and username (per OS user), and is sent when its slot begins. Nothing is locked, so a process
 * that dies holds nothing: at worst one unused slot. A slot's file is removed once its time has
 * passed, and the directory with the last one; what a killed process leaves is swept by the next
 * process that takes slots for the account.
 */
export class RateSlots {
  private readonly intervalMs: number;
  /** Slots before this one are taken (or past) as far as this process knows. */
  private next = 0;
  /** Reservations of one process run one at a time, so they do not race each other's files. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    perSecond: number,
  ) {
    this.intervalMs = 1000 / perSecond;
  }

  /** Resolves when the caller may send: at the start of the slot it holds. */
  async take(): Promise<void> {
    const reserved = this.queue.then(() => this.reserve());
    this.queue = reserved.catch(() => undefined);
    const slot = await reserved;
    const wait = slot * this.intervalMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    setTimeout(() => void this.release(slot), this.intervalMs);
  }

  private async reserve(): Promise<number> {
    let slot = Math.max(Math.ceil(Date.now() / this.intervalMs), this.next);
    if (this.next === 0) await this.sweep(slot);
    for (;;) {
      try {
        await writeFile(join(this.dir, String(slot)), '', { flag: 'wx' });
        this.next = slot + 1;
        return slot;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') slot++;
        else if (code === 'ENOENT') await mkdir(this.dir, { recursive: true, mode: 0o700 });
        else throw err;
      }
    }
  }

  /** Removes the files of past slots that a process killed in its slot's time left behind. */
  private async sweep(current: number): Promise<void> {
    const names = await readdir(this.dir).catch(() => []);
    const past = names.filter((name) => Number(name) < current - 1);
    await Promise.all(past.map((name) => unlink(join(this.dir, name)).catch(() => undefined)));
  }

  /** A past slot can be taken by no one (slots start at the present), so its file can go. */
  private async release(slot: number): Promise<void> {
    await unlink(join(this.dir, String(slot))).catch(() => undefined);
    // Only empty directories are removed; a reservation that finds them gone makes them again.
    await rmdir(this.dir)
      .then(() => rmdir(dirname(this.dir)))
      .catch(() => undefined);
  }
}

/** Where the slots of one account (endpoint and username) are taken on this machine. */
export function slotDirectory(endpointUrl: string, username?: string): string {
  const endpoint = endpointUrl.replace(/\/+$/, '');
  const account = createHash('sha256')
    .update(`${endpoint}\n${username ?? ''}`)
    .digest('hex');
  return join(tmpdir(), `svc-rate-slots-${userInfo().uid}`, account.slice(0, 24));
}

/**
 * The rate-limit stage: `next` at most `perSecond` times a second for the account, together with
 * every other client and process of this machine (see `RateSlots`); undefined: no limit.
 */
export function withRateLimit(
  next: Transport,
  perSecond: number | undefined,
  account: { endpointUrl: string; username?: string },
): Transport {
  if (perSecond === undefined) return next;
  const slots = new RateSlots(slotDirectory(account.endpointUrl, account.username), perSecond);
  return async (call) => {
    await slots.take();
    return next(call);
  };
}
