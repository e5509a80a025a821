/**
 * Calls per second of a run, by method, from the emulator's request log: where a run's time goes
 * (paced by the rate limit, waiting on provisioning, or idle while Pulumi starts).
 */
export class CallTimeline {
  private started = 0;
  private readonly buckets = new Map<number, Map<string, number>>();

  emulatorOptions(): { logRequests: true; log: (line: string) => void } {
    return { logRequests: true, log: (line) => this.record(line) };
  }

  start(at: number): void {
    this.started = at;
    this.buckets.clear();
  }

  private record(line: string): void {
    // Per-call lines start with `Service::method`; other log lines (warnings) are no call.
    const method = line.split(' ')[0].split('::')[1];
    if (!this.started || !method) return;
    const second = Math.floor((Date.now() - this.started) / 1000);
    const bucket = this.buckets.get(second) ?? new Map<string, number>();
    bucket.set(method, (bucket.get(method) ?? 0) + 1);
    this.buckets.set(second, bucket);
  }

  rows(): Record<string, string | number>[] {
    const methods = [...new Set([...this.buckets.values()].flatMap((b) => [...b.keys()]))].sort();
    const last = Math.max(0, ...this.buckets.keys());
    return Array.from({ length: last + 1 }, (_, second) => {
      const bucket = this.buckets.get(second);
      const row: Record<string, string | number> = { second };
      for (const m of methods) row[m] = bucket?.get(m) ?? 0;
      return row;
    });
  }
}
