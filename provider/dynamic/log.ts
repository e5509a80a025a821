/**
 * Lines for the person running Pulumi. A dynamic provider's stdout reaches the CLI as info
 * diagnostics. `pulumi up` runs check and diff twice (preview, then update) in one provider
 * process, so `once` keeps a billing line from being printed twice.
 */
const printed = new Set<string>();

export function say(line: string): void {
  console.log(`[svc] ${line}`);
}

export function sayOnce(line: string): void {
  if (printed.has(line)) return;
  printed.add(line);
  say(line);
}
