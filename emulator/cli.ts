#!/usr/bin/env node
/**
 * `svc-emulator`: runs the Svc API emulator until SIGINT/SIGTERM and prints its endpoint URL
 * and the demo credentials (`--json` prints them as one JSON line instead).
 */
import { parseArgs } from 'node:util';
import { startEmulator, type EmulatorOptions } from './emulator';
import type { FaultOptions } from './faults';
import { checkDiscounts, type Discounts } from './services/account/discounts';

const HELP = `Usage: svc-emulator [options]

  --port <n>                   TCP port (0 = a free port; default 8642)
  --host <addr>                listen address (default 127.0.0.1)
  --data-dir <dir>             keep state on disk here (default: memory only)
  --seed demo|empty            starting data for an empty data dir (default demo)
  --provisioning-delay <t>     how long a new guest provisions: ms, or with s/ms suffix (default 3s)
  --reclaim-delay <t>          how long a cancelled guest stays visible, reclaiming (default 0)
  --discounts <json>           the demo account's negotiated prices, percent off list by item
                               category, e.g. '{"guest_core":20,"*":5}' (default: list prices)
  --max-body-bytes <n>         request size limit (default 8388608)
  --fault-seed <n>             seed for the fault PRNG (reproducible fault sequences)
  --fault-500-rate <0..1>      fraction of calls answered with HTTP 500
  --fault-drop-rate <0..1>     fraction of calls reset before they run (nothing applied, no answer)
  --fault-lose-response-rate <0..1>  fraction of calls applied, then dropped unanswered
  --fault-slow-commit-rate <0..1>    fraction of calls that run only after --fault-slow-commit
  --fault-slow-commit <t>      how late a slow commit runs: ms, or with s/ms suffix (default 3s)
  --fault-5xx-after-commit-rate <0..1>  fraction of calls applied, then answered with an HTTP 5xx
  --fault-5xx-after-commit-status <n>   that status (default 502)
  --fault-latency <min..max>   added latency per call in ms (e.g. 20..200)
  --rate-limit <n>             calls per second per caller before the rate-limit fault
  --verbose                    log every call to stderr
  --json                       print the endpoint and credentials as one JSON line
  --help
`;

function parseDuration(text: string, flag: string): number {
  const m = /^(\d+)(ms|s)?$/.exec(text.trim());
  if (!m)
    throw new Error(
      `${flag}: expected milliseconds, or a number with an s/ms suffix, got '${text}'`,
    );
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

function parseNumber(
  text: string,
  flag: string,
  { integer = false, min = 0, max = Infinity } = {},
): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new Error(
      `${flag}: '${text}' is not ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
    );
  }
  return n;
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  seed: { type: 'string' },
  discounts: { type: 'string' },
  'provisioning-delay': { type: 'string' },
  'reclaim-delay': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  'fault-seed': { type: 'string' },
  'fault-500-rate': { type: 'string' },
  'fault-drop-rate': { type: 'string' },
  'fault-lose-response-rate': { type: 'string' },
  'fault-slow-commit-rate': { type: 'string' },
  'fault-slow-commit': { type: 'string' },
  'fault-5xx-after-commit-rate': { type: 'string' },
  'fault-5xx-after-commit-status': { type: 'string' },
  'fault-latency': { type: 'string' },
  'rate-limit': { type: 'string' },
  verbose: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ args: string[]; strict: true; options: typeof OPTIONS }>
>['values'];

export function optionsFromArgs(argv: string[]): (EmulatorOptions & { json: boolean }) | 'help' {
  const { values } = parseArgs({ args: argv, strict: true, options: OPTIONS });
  if (values.help) return 'help';
  const seed = values.seed ?? 'demo';
  if (seed !== 'demo' && seed !== 'empty')
    throw new Error(`--seed: expected demo or empty, got '${seed}'`);
  const faults = faultsFromArgs(values);
  return {
    port:
      values.port === undefined
        ? 8642
        : parseNumber(values.port, '--port', { integer: true, max: 65535 }),
    host: values.host,
    dataDir: values['data-dir'],
    seed,
    provisioningDelayMs: values['provisioning-delay']
      ? parseDuration(values['provisioning-delay'], '--provisioning-delay')
      : undefined,
    reclaimDelayMs: values['reclaim-delay']
      ? parseDuration(values['reclaim-delay'], '--reclaim-delay')
      : undefined,
    maxBodyBytes: values['max-body-bytes']
      ? parseNumber(values['max-body-bytes'], '--max-body-bytes', { integer: true, min: 1024 })
      : undefined,
    discounts: values.discounts === undefined ? undefined : discountsArg(values.discounts),
    faults,
    logRequests: values.verbose ?? false,
    json: values.json ?? false,
  };
}

function discountsArg(text: string): Discounts {
  try {
    return checkDiscounts(JSON.parse(text));
  } catch (err) {
    throw new Error(`--discounts: ${(err as Error).message}`);
  }
}

function faultsFromArgs(values: Values): FaultOptions {
  const faults: FaultOptions = {};
  if (values['fault-seed'])
    faults.seed = parseNumber(values['fault-seed'], '--fault-seed', {
      integer: true,
      min: -(2 ** 31),
    });
  const rates = {
    'fault-500-rate': 'http500Rate',
    'fault-drop-rate': 'dropRate',
    'fault-lose-response-rate': 'loseResponseRate',
    'fault-slow-commit-rate': 'slowCommitRate',
    'fault-5xx-after-commit-rate': 'errorAfterCommitRate',
  } as const;
  for (const [flag, key] of Object.entries(rates)) {
    const text = values[flag as keyof typeof rates];
    if (text) faults[key] = parseNumber(text, `--${flag}`, { max: 1 });
  }
  if (values['fault-slow-commit'])
    faults.slowCommitMs = parseDuration(values['fault-slow-commit'], '--fault-slow-commit');
  if (values['fault-5xx-after-commit-status']) {
    faults.errorAfterCommitStatus = parseNumber(
      values['fault-5xx-after-commit-status'],
      '--fault-5xx-after-commit-status',
      { integer: true, min: 500, max: 599 },
    );
  }
  if (values['fault-latency']) {
    const [min, max = min] = values['fault-latency'].split('..');
    faults.latencyMs = {
      min: parseNumber(min, '--fault-latency'),
      max: parseNumber(max, '--fault-latency'),
    };
  }
  if (values['rate-limit'])
    faults.rateLimitPerSecond = parseNumber(values['rate-limit'], '--rate-limit', { min: 1 });
  return faults;
}

async function main(): Promise<void> {
  let options;
  try {
    options = optionsFromArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`svc-emulator: ${(err as Error).message}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const emulator = await startEmulator({
    ...options,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const { demo, demoOps, other } = emulator.accounts;
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ url: emulator.url, port: emulator.port, adminUrl: emulator.adminUrl, credentials: emulator.credentials, accounts: emulator.accounts })}\n`,
    );
  } else {
    process.stdout.write(
      [
        `svc-emulator listening on ${emulator.url}`,
        `  state: ${options.dataDir ? `${options.dataDir} (durable)` : 'memory only (lost on exit; use --data-dir to keep it)'}`,
        `  demo credentials (account "${demo.companyName}"):`,
        `    export SVC_ENDPOINT_URL=${emulator.url}`,
        `    export SVC_USERNAME=${demo.username}`,
        `    export SVC_API_KEY=${demo.apiKey}`,
        `  password login: ${demoOps.username} / ${demoOps.password} (security question ${demoOps.securityQuestion?.id}: "${demoOps.securityQuestion?.answer}")`,
        `  second account "${other.companyName}": ${other.username} / ${other.apiKey}`,
        `  admin API: ${emulator.adminUrl}/stats, /faults, /accounts/<username>/objects`,
        '',
      ].join('\n'),
    );
  }
  const stop = (signal: string) => {
    process.stderr.write(`svc-emulator: ${signal}, shutting down\n`);
    emulator.close().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`svc-emulator: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
