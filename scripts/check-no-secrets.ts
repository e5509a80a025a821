import * as fs from 'node:fs';
import * as path from 'node:path';
import { seededAccounts } from '../emulator/seed';
import { MIN_RUN, Redactor } from '../provider/client/redact';
import { TEST_CREDENTIALS } from '../test/support/test-credentials';

/**
 * Fails when a credential shows up in the test logs given as arguments (files or folders; the
 * stack tests add the states their file backends stored, test/stack/cli.ts):
 * - any run of MIN_RUN (8) or more consecutive characters, in any ASCII case, of a known
 *   credential: the seeded API keys, passwords and security answers, and the fixed credentials
 *   of the client tests (test/support/test-credentials.ts). It is the same matcher the client
 *   redacts with (provider/client/redact.ts), so what it would hide, this finds;
 * - any 64-hex-digit run, which is the shape of every API key and login token the emulator
 *   issues (so whole keys of accounts made during the tests are caught too).
 * The report shows each line with the credential replaced, never the credential itself.
 */
const KEY_OR_TOKEN = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/gi;

/**
 * Words of ordinary log text that are also runs of the seeded demo passwords (`demo-password`,
 * `ops-password`, ...): a test named "... the password is kept out of it" is no leak.
 */
const ORDINARY = ['-password-'];

export function knownCredentials(): string[] {
  const seeded = Object.values(seededAccounts()).flatMap((user) => [
    user.apiKey,
    user.password,
    user.securityQuestion?.answer,
  ]);
  return [...seeded, ...TEST_CREDENTIALS].filter((s): s is string => typeof s === 'string');
}

function files(target: string): string[] {
  if (!fs.existsSync(target)) return [];
  if (!fs.statSync(target).isDirectory()) return [target];
  return fs.readdirSync(target).flatMap((name) => files(path.join(target, name)));
}

/**
 * A Pulumi state's checksum of its manifest (`"magic": "<64 hex>"`), which has the shape of a key
 * but is none: the states the stack tests keep (test/stack/cli.ts) are searched with it left out.
 */
const STATE_CHECKSUM = /"magic":\s*"[0-9a-f]{64}"/g;

/** The line with every credential replaced, or undefined when it holds none. */
export function leakIn(line: string, redactor: Redactor): string | undefined {
  const searched = line.replace(STATE_CHECKSUM, '"magic":"<checksum>"');
  const shown = redactor.redact(searched).replace(KEY_OR_TOKEN, '<64 hex>');
  return shown === searched ? undefined : shown;
}

function main(targets: string[]): number {
  const redactor = new Redactor(knownCredentials(), ORDINARY);
  const logs = targets.flatMap(files);
  let leaks = 0;
  for (const file of logs) {
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const shown = leakIn(line, redactor);
        if (shown === undefined) return;
        leaks++;
        console.error(`credential in ${file}:${i + 1}: ${shown.slice(0, 160)}`);
      });
  }
  console.log(
    `check-no-secrets: ${logs.length} log file(s) scanned for keys, tokens, passwords and runs of ` +
      `${MIN_RUN}+ of their characters; ${leaks} line(s) with a credential`,
  );
  return leaks > 0 ? 1 : 0;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
