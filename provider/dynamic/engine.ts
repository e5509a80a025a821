import { ENGINE_ADDRESS, onBrokenPipe, watchEngine } from '../framework/engine-watch';

/**
 * The dynamic door's side of the engine watch (framework/engine-watch.ts): this is the process
 * Pulumi starts for dynamic providers (`cmd/dynamic-provider/index.js <engine>`), and that
 * argument is the engine it answers to.
 */
export function watchDynamicProviderEngine(argv: readonly string[] = process.argv): void {
  if (!/cmd[/\\]dynamic-provider/.test(argv[1] ?? '')) return;
  const engine = ENGINE_ADDRESS.test(argv[2] ?? '') ? argv[2] : undefined;
  if (!engine) {
    // Nothing to ask; a broken pipe still must not spin (see engine-watch.ts).
    onBrokenPipe(() => process.exit(1));
    return;
  }
  // A killed CLI's program reaps the run's dynamic providers as it exits (reapRunOnExit): one
  // that never loaded this runtime cannot notice by itself. This one can, and must outlive the
  // program to hand back its claims, so it drops the command line the reaper matches.
  process.title = `pulumi-svc dynamic-provider (watching its engine)`;
  // The CLI is gone when its engine is: the run's language host goes too.
  watchEngine({ engine, reap: () => true });
}
