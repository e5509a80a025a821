/** Counters shown by `GET /_emulator/stats` and `handle.stats()`. */
export interface EmulatorStats {
  startedAt: string;
  uptimeMs: number;
  requests: number;
  /** Calls that reached a service method, by `Service.method`. */
  calls: Record<string, number>;
  /** API faults answered, by fault code. */
  faults: Record<string, number>;
  /** Injected faults, by kind: http-500, drop, lose-response, latency, rate-limit, api-fault, slow-commit, error-after-commit. */
  faultsInjected: Record<string, number>;
  /** Acknowledged write transactions. */
  writes: number;
  journal?: { entriesWritten: number; batches: number; bytes: number; compactions: number };
  objects: Record<string, number>;
}

export class StatsCounter {
  readonly startedAt = Date.now();
  requests = 0;
  readonly calls = new Map<string, number>();
  readonly faults = new Map<string, number>();
  readonly injected = new Map<string, number>();

  bump(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}
