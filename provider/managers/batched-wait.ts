import { AsyncLocalStorage } from 'node:async_hooks';
import { READY_PACE } from './paces';

/**
 * Waits for many objects at once with one listing per round, where a loop per object would read
 * each one per round: twenty guests provisioning together cost one call a round, not twenty,
 * which keeps a stack (and ten stacks on one account) below the API's rate limit.
 *
 * A round lists every object still awaited; each waiter whose object is ready resolves, the rest
 * report progress or time out. An object missing from the listing is read on its own, so its
 * absence ends that object's wait in the API's own error (`ObjectNotFound`), as a single read
 * would. A failed listing fails every waiter of that round, as a failed read fails a single wait.
 *
 * The rounds follow the pace (soon, then slower) until one finds an object ready; that says how
 * long objects take, and from then on rounds are when the others are expected ready: fewer
 * listings than a pace, and the last object is noticed sooner.
 */

export interface BatchWaitOptions<T> {
  timeoutMs: number;
  /** The pace of the first rounds after this wait joins (default: the waiter's own). */
  pollMs?: number;
  /** Called after each round that found the object not ready yet. */
  onProgress?: (object: T, elapsedMs: number) => void;
  /** What this waiter waits for, where it is more than the source's `ready` (a reload done). */
  ready?(object: T): boolean;
  /** This waiter's timeout (default: the source's). */
  timeoutError?(id: number, last: T, timeoutMs: number): Error;
}

export interface BatchSource<T extends { id: number }> {
  /** The objects with these ids that the account has (in one call). */
  list(ids: number[]): Promise<T[]>;
  /** One object; throws when the account does not have it. */
  read(id: number): Promise<T>;
  ready(object: T): boolean;
  timeoutError(id: number, last: T, timeoutMs: number): Error;
}

interface Waiter<T> {
  id: number;
  started: number;
  options: BatchWaitOptions<T>;
  resolve(object: T): void;
  reject(err: unknown): void;
}

export class BatchedWait<T extends { id: number }> {
  private waiters: Waiter<T>[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** When the scheduled round runs. */
  private due = 0;
  private delay: number;
  /** The first pace: the poll of the first waiter since the last time none waited. */
  private pace: number;
  /** A round is listing: waiters that join now are looked at after it. */
  private inRound = false;
  /** A round has found one of this group ready (the pace was set back then, once). */
  private sawReady = false;
  /**
   * How long an object takes to get ready, at most, as seen: the shortest wait a round ended
   * ready. Undefined until a round has found one ready.
   */
  private readyWithinMs: number | undefined;

  constructor(
    private readonly source: BatchSource<T>,
    private readonly pollMs = READY_PACE.firstMs,
    private readonly maxPollMs = READY_PACE.maxMs,
  ) {
    this.delay = pollMs;
    this.pace = pollMs;
  }

  wait(id: number, waitOptions: BatchWaitOptions<T>): Promise<T> {
    // A round runs in the async context of whoever scheduled it; each waiter's progress runs in
    // its own (a provider's lines name the resource of the operation that waits).
    const { onProgress } = waitOptions;
    const options = {
      ...waitOptions,
      onProgress: onProgress && AsyncLocalStorage.bind(onProgress),
    };
    return new Promise<T>((resolve, reject) => {
      const idle = this.waiters.length === 0 && !this.inRound;
      this.waiters.push({ id, started: Date.now(), options, resolve, reject });
      // A new object is not ready at once. The first to wait is looked at one poll from now, and
      // the pace slows as rounds find nothing ready. Objects ordered while others wait (an `up`
      // orders its guests over a few seconds) join the rounds as they come, at the pace reached:
      // none of them is ready within a poll of its order, and setting the pace back for each
      // would list the account every second for as long as orders keep coming.
      if (idle) {
        this.pace = options.pollMs ?? this.pollMs;
        this.delay = this.pace;
        this.sawReady = false;
      }
      if (this.inRound) return; // the round's end schedules the next one, deadlines included
      // Once objects were seen to get ready, a new group is first looked at when it is expected
      // to be (an `up` at --parallel 10 orders 30 guests in three groups).
      const firstLook = this.bounded(this.readyWithinMs ?? this.delay);
      const first = Math.min(idle ? firstLook : Infinity, options.timeoutMs);
      if (!this.timer || this.due > Date.now() + first) this.schedule(first);
    });
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.due = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.round();
    }, ms);
  }

  private async round(): Promise<void> {
    this.inRound = true;
    try {
      await this.look();
    } finally {
      this.inRound = false;
      this.next();
    }
  }

  /** One round: lists the awaited objects and settles each waiter it can. */
  private async look(): Promise<void> {
    const waiters = this.waiters;
    this.waiters = [];
    const ids = [...new Set(waiters.map((w) => w.id))];
    const found = new Map<number, T | { failed: unknown }>();
    try {
      for (const object of await this.source.list(ids)) found.set(object.id, object);
    } catch (err) {
      for (const w of waiters) w.reject(err);
      return;
    }
    for (const id of ids.filter((id) => !found.has(id))) {
      found.set(id, await this.source.read(id).catch((failed: unknown) => ({ failed })));
    }
    const now = Date.now();
    let readyNow = false;
    for (const w of waiters) {
      const object = found.get(w.id)!;
      const elapsed = now - w.started;
      // A waiter's own callback that throws ends that wait, not the round of the others.
      try {
        if ('failed' in object) w.reject(object.failed);
        else if ((w.options.ready ?? this.source.ready)(object)) {
          w.resolve(object);
          readyNow = true;
          this.readyWithinMs = Math.min(this.readyWithinMs ?? Infinity, elapsed);
        } else if (elapsed >= w.options.timeoutMs)
          w.reject(
            (w.options.timeoutError ?? this.source.timeoutError)(w.id, object, w.options.timeoutMs),
          );
        else {
          w.options.onProgress?.(object, elapsed);
          this.waiters.push(w);
        }
      } catch (err) {
        w.reject(err);
      }
    }
    // Objects ordered together get ready together: once the first is, the others are looked at
    // again at the first pace, not the grown one (which would notice the last of them seconds
    // late). Only the first time: objects ordered over many seconds get ready over as many, and
    // setting the pace back at each would list the account every second until the last.
    if (readyNow && !this.sawReady) {
      this.delay = this.pace;
      this.sawReady = true;
    }
  }

  /** The next round, unless a new waiter already scheduled one, and never past a deadline. */
  private next(): void {
    if (this.waiters.length === 0 || this.timer) return;
    const now = Date.now();
    const untilDeadline = Math.min(
      ...this.waiters.map((w) => w.started + w.options.timeoutMs - now),
    );
    const untilExpected = this.untilExpected(now);
    this.schedule(Math.max(0, Math.min(untilExpected ?? this.delay, untilDeadline)));
    this.delay = Math.min(this.delay * READY_PACE.growth, this.maxPollMs);
  }

  /**
   * Once a round has found an object ready, the others are expected ready as long after their own
   * wait began (objects of one kind provision alike). The next round is then when those expected
   * first are ready, held back to also take in the ones expected within a share of that time
   * (half of it; the round at most the longest poll away): one round notices the lot at once,
   * where a pace would look several times in between and notice the last one late. Undefined:
   * nothing learnt yet, or an object is overdue (it looks again at the grown pace, as before
   * anything was ready).
   */
  private untilExpected(now: number): number | undefined {
    const within = this.readyWithinMs;
    if (within === undefined) return undefined;
    const expected = this.waiters.map((w) => w.started + within).sort((a, b) => a - b);
    if (expected[0] <= now) return undefined;
    const window = Math.min(within / 2, this.maxPollMs);
    const last = expected.filter((at) => at <= expected[0] + window).pop()!;
    return this.bounded(last - now);
  }

  /**
   * Never sooner than the first pace, never later than the longest poll: an object that gets ready
   * sooner than those before it (a guest ordered minutes before its update waits) is not
   * noticed later than the pace alone would.
   */
  private bounded(ms: number): number {
    return Math.min(Math.max(ms, this.pace), this.maxPollMs);
  }
}
