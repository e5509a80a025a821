import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, rmdir, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { endpointBase } from '../endpoints';
import { isRateLimited } from '../errors';
import type { Transport } from './call';

/**
 * At most `perSecond` calls a second for one account from this machine, across processes: ten
 * `pulumi up` running at once are ten provider processes, and the API's limit counts them
 * together. Time is cut into slots 1/perSecond s apart; a call takes the first free slot by
 * creating the slot's file exclusively in a directory shared by every client of the same endpoint,
 * username and rate (per OS user), and is sent when its slot begins. Nothing is locked, so a
 * process that dies holds nothing: at worst one unused slot. A slot's file is removed once its
 * time has passed, and the directory with the last one; what a killed process leaves is swept by
 * the next process that takes slots for the account. Where the directory cannot be used, each
 * process keeps to the rate on its own.
 */
class RateSlots {
  private readonly intervalMs: number;
  /** Slots before this one are taken (or past) as far as this process knows. */
  private next = 0;
  /** Reservations of one process run one at a time, so they do not race each other's files. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * False once the directory proved unusable (read-only, full, not this user's own): the slots
   * are then this process's alone, as a per-process limiter; calls are never failed for it.
   */
  private shared = true;

  constructor(
    private readonly dir: string,
    perSecond: number,
  ) {
    this.intervalMs = 1000 / perSecond;
  }

  /**
   * Resolves when the caller may send: at the start of the first of the `count` slots it holds
   * (the call, then `count - 1` left empty: a throttled process's call weighs that much in the
   * budget of every process of this machine).
   */
  async take(count = 1): Promise<void> {
    const reserved = this.queue.then(() => this.reserve(count));
    this.queue = reserved.catch(() => undefined);
    const slots = await reserved;
    const wait = slots[0] * this.intervalMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!this.shared) return;
    const last = slots[slots.length - 1];
    const release = setTimeout(
      () => void this.release(slots),
      (last - slots[0] + 1) * this.intervalMs,
    );
    // Below one call a second, a process is not kept waiting to tidy up (the next one sweeps).
    if (this.intervalMs > 1000) release.unref();
  }

  private async reserve(count: number): Promise<number[]> {
    let slots = [Math.max(Math.ceil(Date.now() / this.intervalMs), this.next)];
    if (this.shared) {
      try {
        slots = [await this.reserveShared(slots[0])];
        // The empty ones right after it, as far as they are free (one taken already is in use
        // by another call, which keeps the budget as well).
        for (let slot = slots[0] + 1; slot < slots[0] + count; slot++) {
          if (await this.claimSlot(slot)) slots.push(slot);
        }
      } catch {
        this.shared = false;
      }
    }
    this.next = slots[0] + count;
    return slots;
  }

  /** Creates the slot's file exclusively: false when another call holds it already. */
  private async claimSlot(slot: number): Promise<boolean> {
    try {
      await writeFile(join(this.dir, String(slot)), '', { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  private async reserveShared(from: number): Promise<number> {
    if (this.next === 0) {
      await this.prepare();
      await this.sweep(from);
    }
    for (let slot = from; ;) {
      try {
        if (await this.claimSlot(slot)) return slot;
        // Taken: the slots from now on are taken in a run (each process takes the first free
        // one), so the next free one is past the last taken. Probing one by one instead cost a
        // call one failed create per call queued ahead of it: with ten processes, hundreds.
        slot = Math.max(slot + 1, (await this.lastTaken()) + 1);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') await this.prepare();
        else throw err;
      }
    }
  }

  /** The latest slot whose file exists (-1 for none, or when the directory just went). */
  private async lastTaken(): Promise<number> {
    let last = -1;
    for (const name of await readdir(this.dir).catch(() => [])) {
      if (/^\d+$/.test(name)) last = Math.max(last, Number(name));
    }
    return last;
  }

  /**
   * Makes the directories, and trusts them only as this user's own: real directories (no
   * symlink), owned by this user and closed to others, so no one else can stall or steer them.
   */
  private async prepare(): Promise<void> {
    for (const dir of [dirname(this.dir), this.dir]) {
      await mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      const stat = await lstat(dir);
      const uid = process.getuid?.();
      const own = uid === undefined || stat.uid === uid;
      if (!stat.isDirectory() || !own || (stat.mode & 0o077) !== 0) {
        throw new Error(`${dir} is not this user's own directory`);
      }
    }
  }

  /** Removes the files of past slots that a process killed in its slot's time left behind. */
  private async sweep(current: number): Promise<void> {
    const names = await readdir(this.dir);
    const past = names.filter((name) => /^\d+$/.test(name) && Number(name) < current - 1);
    await Promise.all(past.map((name) => unlink(join(this.dir, name)).catch(() => undefined)));
  }

  /** A past slot can be taken by no one (slots start at the present), so its file can go. */
  private async release(slots: number[]): Promise<void> {
    await Promise.all(
      slots.map((slot) => unlink(join(this.dir, String(slot))).catch(() => undefined)),
    );
    // Only empty directories are removed; a reservation that finds them gone makes them again.
    await rmdir(this.dir)
      .then(() => rmdir(dirname(this.dir)))
      .catch(() => undefined);
  }
}

/**
 * Where the slots of one account (endpoint and username) at one rate are taken on this machine.
 * Slots are numbered in units of the rate, so only processes with the same rate can share them.
 */
function slotDirectory(
  endpointUrl: string,
  username: string | undefined,
  perSecond: number,
): string {
  const account = createHash('sha256')
    .update(`${endpointBase(endpointUrl)}\n${username ?? ''}\n${perSecond}`)
    .digest('hex');
  return join(tmpdir(), `svc-rate-slots-${process.getuid?.() ?? 'user'}`, account.slice(0, 24));
}

/**
 * This process's share of the configured rate, adapted to the API's rate-limit faults (as the AWS
 * SDKs' adaptive retry mode does). The slot files share one machine's budget; runners on several
 * machines, each at the configured rate, can together exceed the account's limit, and a fault
 * says the account is over it, whoever is to blame. So a fault halves this process's share (down
 * to 1/16), and each answered call creeps it back up by 1/32 for each slot it took (the share
 * comes back at the same speed in time however low it fell: the full rate again within a few dozen
 * slots of calls answered; 1/32 a call kept a process at 1/16 for seconds). Below the full share, each call takes as many slots as the share is a fraction of the
 * whole (at 1/4: its own and three left empty), in the budget that every process of this machine
 * takes from: the machine as a whole slows down, not only the process that met the fault. (Spacing
 * only this process's calls left the others at the full rate: five processes a machine on four
 * machines, each down to its 1/16, still sent more than the account's limit, and a quarter of the
 * calls were refused.)
 */
export class AdaptivePace {
  static readonly MIN_SHARE = 1 / 16;
  static readonly STEP = 1 / 32;
  private share = 1;

  get currentShare(): number {
    return this.share;
  }

  /** The slots a call takes at the current share: 1 at the full rate, 16 at the least. */
  get slotsPerCall(): number {
    return Math.round(1 / this.share);
  }

  throttled(): void {
    this.share = Math.max(AdaptivePace.MIN_SHARE, this.share / 2);
  }

  /** A call that took `slots` slots was answered. */
  answered(slots = 1): void {
    this.share = Math.min(1, this.share + AdaptivePace.STEP * slots);
  }
}

/**
 * The rate-limit stage: `next` at most `perSecond` times a second for the account, together with
 * every other client and process of this machine (see `RateSlots`), at this process's share of
 * that rate (`AdaptivePace`); undefined: no limit.
 */
export function withRateLimit(
  next: Transport,
  perSecond: number | undefined,
  account: { endpointUrl: string; username?: string },
): Transport {
  if (perSecond === undefined) return next;
  const dir = slotDirectory(account.endpointUrl, account.username, perSecond);
  const slots = new RateSlots(dir, perSecond);
  const pace = new AdaptivePace();
  return async (call) => {
    const weight = pace.slotsPerCall;
    await slots.take(weight);
    try {
      const result = await next(call);
      pace.answered(weight);
      return result;
    } catch (err) {
      if (isRateLimited(err)) pace.throttled();
      throw err;
    }
  };
}
