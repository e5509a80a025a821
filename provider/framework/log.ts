import { redact } from '../client/redact';

/**
 * Lines for the person running Pulumi. A dynamic provider's stdout reaches the CLI as info
 * diagnostics. `pulumi up` runs check and diff twice (preview, then update) in one provider
 * process, so `once` keeps a billing line from being printed twice.
 *
 * Every line, and every error the providers hand to the engine (see redacting.ts), has the
 * provider's credentials redacted: a line may quote what the server sent, and a hostile or
 * broken server may echo the key back.
 */
const printed = new Set<string>();
let secrets: readonly string[] = [];

/** The credentials of this provider process (set when it is configured and when it connects). */
export function protectSecrets(values: readonly (string | undefined)[]): void {
  const next = values.filter((v): v is string => typeof v === 'string' && v !== '');
  secrets = [...new Set([...secrets, ...next])];
}

/** `text` with this process's credentials redacted. */
export function scrub(text: string): string {
  return redact(text, secrets);
}

/** Where lines go: stdout, which reaches the CLI from a dynamic provider; the plugin sets its own. */
let sink: (line: string) => void = (line) => console.log(line);

export function setLineSink(write: (line: string) => void): void {
  sink = write;
}

export function say(line: string): void {
  sink(`[svc] ${scrub(line)}`);
}

export function sayOnce(line: string): void {
  if (printed.has(line)) return;
  printed.add(line);
  say(line);
}
