import { AsyncLocalStorage } from 'node:async_hooks';
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

/**
 * One line for the person running Pulumi. `status` lines say how a wait goes (a stage and the time
 * so far): they are meant to replace one another, not to pile up. `resource` is the URN of the
 * operation that said it, where the door knows it.
 */
export interface Line {
  text: string;
  /** `stage` without the time: a row that shows its operation's time shows only the stage. */
  status?: { subject: string; stage: string };
  resource?: string;
}

/** Lines on stdout, as a dynamic provider's reach the CLI: a status line only when its stage moves. */
function printSink(): (line: Line) => void {
  const stages = new Map<string, string>();
  return ({ text, status }) => {
    if (status) {
      if (stages.get(status.subject) === status.stage) return;
      stages.set(status.subject, status.stage);
    }
    console.log(text);
  };
}

let sink: (line: Line) => void = printSink();

/** Where lines go: the plugin sends them to the engine's log, on their resource's row. */
export function setLineSink(write: (line: Line) => void = printSink()): void {
  sink = write;
}

const operation = new AsyncLocalStorage<string>();

/** Runs `work` as the operation on resource `urn`: what it says is said about that resource. */
export function aboutResource<T>(urn: string, work: () => T): T {
  return operation.run(urn, work);
}

export function say(line: string): void {
  sink({ text: `[svc] ${scrub(line)}`, resource: operation.getStore() });
}

/** How a wait goes: `subject: detail (N s)`, shown where the door shows a resource's progress. */
export function sayStatus(subject: string, stage: string, elapsedMs: number): void {
  const [what, now] = [scrub(subject), scrub(stage)];
  sink({
    text: `[svc] ${what}: ${now} (${Math.round(elapsedMs / 1000)} s)`,
    status: { subject: what, stage: now },
    resource: operation.getStore(),
  });
}

export function sayOnce(line: string): void {
  if (printed.has(line)) return;
  printed.add(line);
  say(line);
}
