/**
 * Fault injection for tests and soaks: rates of HTTP 500s, connections reset before the call runs
 * (no response, nothing applied), lost responses (the call is applied, then the connection is
 * dropped), slow commits (the call runs only after a delay, typically past the client's timeout),
 * HTTP 5xx answers sent after the call was applied (a proxy giving up on a backend that committed),
 * added latency, a per-caller requests-per-second limit answered with the rate-limit fault, and
 * one-shot faults aimed at a given service/method. Random draws come from a seeded PRNG: the same
 * seed and the same sequence of calls give the same faults.
 */
import { ApiFault, FaultCodes } from './errors';
import { mulberry32 } from './prng';

export type InjectedFault =
  | 'http-500'
  | 'drop'
  | 'lose-response'
  | 'rate-limit'
  | 'api-fault'
  | 'latency'
  | 'slow-commit'
  | 'error-after-commit';

/** What a slow commit waits before running the call, unless told otherwise. */
export const DEFAULT_SLOW_COMMIT_MS = 3000;
/** The status of an `error-after-commit` answer, unless told otherwise (a proxy's Bad Gateway). */
export const DEFAULT_AFTER_COMMIT_STATUS = 502;

export interface OnceFault {
  /** `Virtual_Guest` or `Svc_Virtual_Guest`; omitted = any service. */
  service?: string;
  /** Omitted = any method. */
  method?: string;
  fault: InjectedFault;
  /** For `api-fault`: the fault to answer with (default Svc_Exception_Public). */
  faultCode?: string;
  faultString?: string;
  /** For `latency` and `slow-commit`: the delay (slow-commit: before the call runs). */
  delayMs?: number;
  /** For `error-after-commit`: the HTTP status answered once the call has run (500-599). */
  status?: number;
  /** How many matching calls it applies to (default 1). */
  times?: number;
}

export interface FaultOptions {
  seed?: number;
  /** Fraction (0..1) of calls answered with HTTP 500 before they run. */
  http500Rate?: number;
  /** Fraction of calls whose connection is reset without a response, before they run. */
  dropRate?: number;
  /** Fraction of calls that run (writes are applied and durable), then lose their response. */
  loseResponseRate?: number;
  /** Fraction of calls that run only after `slowCommitMs` (the client has often given up by then). */
  slowCommitRate?: number;
  /** How long a slow commit waits before the call runs (default 3000 ms). */
  slowCommitMs?: number;
  /** Fraction of calls that run (writes are applied and durable), then are answered with a 5xx. */
  errorAfterCommitRate?: number;
  /** The status of those answers (default 502). */
  errorAfterCommitStatus?: number;
  /** Added delay for each call, uniform in [min, max] ms. */
  latencyMs?: { min: number; max: number } | null;
  /** Calls per second allowed per caller; above it the rate-limit fault answers. */
  rateLimitPerSecond?: number | null;
  /** One-shot faults for upcoming matching calls (appended to the queue). */
  once?: OnceFault | OnceFault[];
}

export interface FaultState {
  seed: number;
  http500Rate: number;
  dropRate: number;
  loseResponseRate: number;
  slowCommitRate: number;
  slowCommitMs: number;
  errorAfterCommitRate: number;
  errorAfterCommitStatus: number;
  latencyMs: { min: number; max: number } | null;
  rateLimitPerSecond: number | null;
  pending: OnceFault[];
}

export interface FaultDecision {
  /** Added delay before the call runs. */
  delayMs: number;
  /** What replaces the call, if anything. */
  instead:
    | null
    | { kind: 'http-500' | 'drop' }
    | { kind: 'fault'; fault: ApiFault; injected: InjectedFault };
  /** Run the call, then drop the connection. */
  loseResponse: boolean;
  /** Run the call, then answer with this HTTP status instead of its result. */
  statusAfterCommit: number | null;
  /** The kinds injected, for the counters. */
  kinds: InjectedFault[];
}

const KINDS: readonly InjectedFault[] = [
  'http-500',
  'drop',
  'lose-response',
  'rate-limit',
  'api-fault',
  'latency',
  'slow-commit',
  'error-after-commit',
];
const DEFAULT_SEED = 1;

export class FaultInjector {
  private state: FaultState = blankState(DEFAULT_SEED);
  private random = mulberry32(DEFAULT_SEED);
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options?: FaultOptions) {
    if (options) this.configure(options);
  }

  /** Merges `options` into the current settings (a rate of 0 or null switches it off); null resets all. */
  configure(options: FaultOptions | null): FaultState {
    if (options === null) {
      this.state = blankState(DEFAULT_SEED);
      this.random = mulberry32(DEFAULT_SEED);
      this.buckets.clear();
      return this.current();
    }
    const next: FaultState = { ...this.state, pending: [...this.state.pending] };
    if (options.seed !== undefined) next.seed = checkInteger(options.seed, 'seed');
    if (options.http500Rate !== undefined)
      next.http500Rate = checkRate(options.http500Rate, 'http500Rate');
    if (options.dropRate !== undefined) next.dropRate = checkRate(options.dropRate, 'dropRate');
    if (options.loseResponseRate !== undefined) {
      next.loseResponseRate = checkRate(options.loseResponseRate, 'loseResponseRate');
    }
    if (options.slowCommitRate !== undefined)
      next.slowCommitRate = checkRate(options.slowCommitRate, 'slowCommitRate');
    if (options.slowCommitMs !== undefined)
      next.slowCommitMs = checkDelay(options.slowCommitMs, 'slowCommitMs');
    if (options.errorAfterCommitRate !== undefined) {
      next.errorAfterCommitRate = checkRate(options.errorAfterCommitRate, 'errorAfterCommitRate');
    }
    if (options.errorAfterCommitStatus !== undefined) {
      next.errorAfterCommitStatus = checkStatus(
        options.errorAfterCommitStatus,
        'errorAfterCommitStatus',
      );
    }
    if (options.latencyMs !== undefined) next.latencyMs = checkLatency(options.latencyMs);
    if (options.rateLimitPerSecond !== undefined) {
      const rps = options.rateLimitPerSecond;
      next.rateLimitPerSecond =
        rps === null || rps === 0 ? null : checkPositive(rps, 'rateLimitPerSecond');
    }
    if (options.once !== undefined) {
      for (const once of Array.isArray(options.once) ? options.once : [options.once])
        next.pending.push(checkOnce(once));
    }
    // Giving a seed always restarts the sequence, so a soak can be replayed from the start.
    if (options.seed !== undefined) this.random = mulberry32(next.seed);
    this.state = next;
    return this.current();
  }

  current(): FaultState {
    return { ...this.state, pending: this.state.pending.map((o) => ({ ...o })) };
  }

  /** Decides the fate of one call. `caller` keys the rate limit. */
  decide(service: string, method: string, caller: string, now: number): FaultDecision {
    const s = this.state;
    // Always draw the same number of values so a seed replays identically whatever is enabled.
    const [r500, rDrop, rLose, rLatency, rSlow, rAfter] = [
      this.random(),
      this.random(),
      this.random(),
      this.random(),
      this.random(),
      this.random(),
    ];
    const decision: FaultDecision = {
      delayMs: 0,
      instead: null,
      loseResponse: false,
      statusAfterCommit: null,
      kinds: [],
    };

    const once = this.takeOnce(service, method);
    if (s.latencyMs) {
      decision.delayMs = Math.round(
        s.latencyMs.min + rLatency * (s.latencyMs.max - s.latencyMs.min),
      );
      if (decision.delayMs > 0) decision.kinds.push('latency');
    }
    if (once) {
      this.applyOnce(once, decision, service, method);
      return decision;
    }
    if (s.rateLimitPerSecond !== null && !this.allow(caller, now, s.rateLimitPerSecond)) {
      decision.instead = {
        kind: 'fault',
        injected: 'rate-limit',
        fault: new ApiFault(
          FaultCodes.rateLimit,
          `Rate limit of ${s.rateLimitPerSecond} requests for every 1 second(s) exceeded.`,
        ),
      };
      decision.kinds.push('rate-limit');
    } else if (r500 < s.http500Rate) {
      decision.instead = { kind: 'http-500' };
      decision.kinds.push('http-500');
    } else if (rDrop < s.dropRate) {
      decision.instead = { kind: 'drop' };
      decision.kinds.push('drop');
    } else if (rLose < s.loseResponseRate) {
      decision.loseResponse = true;
      decision.kinds.push('lose-response');
    } else if (rSlow < s.slowCommitRate) {
      decision.delayMs += s.slowCommitMs;
      decision.kinds.push('slow-commit');
    } else if (rAfter < s.errorAfterCommitRate) {
      decision.statusAfterCommit = s.errorAfterCommitStatus;
      decision.kinds.push('error-after-commit');
    }
    return decision;
  }

  private takeOnce(service: string, method: string): OnceFault | undefined {
    const index = this.state.pending.findIndex(
      (o) =>
        (!o.service || o.service === service || o.service === `Svc_${service}`) &&
        (!o.method || o.method === method),
    );
    if (index < 0) return undefined;
    const once = this.state.pending[index];
    const left = (once.times ?? 1) - 1;
    if (left > 0) this.state.pending[index] = { ...once, times: left };
    else this.state.pending.splice(index, 1);
    return once;
  }

  private applyOnce(
    once: OnceFault,
    decision: FaultDecision,
    service: string,
    method: string,
  ): void {
    decision.kinds.push(once.fault);
    switch (once.fault) {
      case 'http-500':
      case 'drop':
        decision.instead = { kind: once.fault };
        return;
      case 'lose-response':
        decision.loseResponse = true;
        return;
      case 'latency':
        decision.delayMs = once.delayMs ?? 1000;
        return;
      case 'slow-commit':
        decision.delayMs += once.delayMs ?? DEFAULT_SLOW_COMMIT_MS;
        return;
      case 'error-after-commit':
        decision.statusAfterCommit = once.status ?? DEFAULT_AFTER_COMMIT_STATUS;
        return;
      case 'rate-limit':
        decision.instead = {
          kind: 'fault',
          injected: 'rate-limit',
          fault: new ApiFault(
            FaultCodes.rateLimit,
            'Rate limit of 50 requests for every 1 second(s) exceeded.',
          ),
        };
        return;
      case 'api-fault':
        decision.instead = {
          kind: 'fault',
          injected: 'api-fault',
          fault: new ApiFault(
            once.faultCode ?? FaultCodes.public,
            once.faultString ?? `Injected fault for ${service}::${method}.`,
          ),
        };
    }
  }

  /** Token bucket per caller: `rps` tokens, refilled continuously. */
  private allow(caller: string, now: number, rps: number): boolean {
    if (this.buckets.size > 10_000) this.buckets.clear();
    const bucket = this.buckets.get(caller) ?? { tokens: rps, at: now };
    bucket.tokens = Math.min(rps, bucket.tokens + ((now - bucket.at) / 1000) * rps);
    bucket.at = now;
    this.buckets.set(caller, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

function blankState(seed: number): FaultState {
  return {
    seed,
    http500Rate: 0,
    dropRate: 0,
    loseResponseRate: 0,
    slowCommitRate: 0,
    slowCommitMs: DEFAULT_SLOW_COMMIT_MS,
    errorAfterCommitRate: 0,
    errorAfterCommitStatus: DEFAULT_AFTER_COMMIT_STATUS,
    latencyMs: null,
    rateLimitPerSecond: null,
    pending: [],
  };
}

function checkRate(value: unknown, name: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new Error(`faults.${name} must be a number from 0 to 1`);
  return value;
}

function checkInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new Error(`faults.${name} must be an integer`);
  return value;
}

function checkPositive(value: unknown, name: string): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new Error(`faults.${name} must be a positive number`);
  }
  return value;
}

function checkDelay(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 600_000)
    throw new Error(`faults.${name} must be an integer from 1 to 600000 (milliseconds)`);
  return value;
}

function checkStatus(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 500 || value > 599)
    throw new Error(`faults.${name} must be an HTTP status from 500 to 599`);
  return value;
}

function checkLatency(value: unknown): { min: number; max: number } | null {
  if (value === null) return null;
  const v = value as { min?: unknown; max?: unknown };
  if (
    typeof value !== 'object' ||
    typeof v.min !== 'number' ||
    typeof v.max !== 'number' ||
    !(v.min >= 0) ||
    !(v.max >= v.min) ||
    v.max > 600_000
  ) {
    throw new Error('faults.latencyMs must be {min, max} with 0 <= min <= max <= 600000');
  }
  return { min: v.min, max: v.max };
}

function checkOnce(value: unknown): OnceFault {
  const o = value as OnceFault;
  if (typeof value !== 'object' || value === null || !KINDS.includes(o.fault)) {
    throw new Error(`faults.once.fault must be one of ${KINDS.join(', ')}`);
  }
  if (o.service !== undefined && typeof o.service !== 'string')
    throw new Error('faults.once.service must be a string');
  if (o.method !== undefined && typeof o.method !== 'string')
    throw new Error('faults.once.method must be a string');
  if (o.times !== undefined) checkPositive(o.times, 'once.times');
  if (o.delayMs !== undefined) checkPositive(o.delayMs, 'once.delayMs');
  if (o.status !== undefined) checkStatus(o.status, 'once.status');
  return {
    service: o.service,
    method: o.method,
    fault: o.fault,
    faultCode: o.faultCode === undefined ? undefined : String(o.faultCode),
    faultString: o.faultString === undefined ? undefined : String(o.faultString),
    delayMs: o.delayMs,
    status: o.status,
    times: o.times,
  };
}
