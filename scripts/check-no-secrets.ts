import * as fs from 'node:fs';
import * as path from 'node:path';
import { seededAccounts } from '../emulator/seed';

/**
 * Fails when a credential shows up in the test logs given as arguments (files or folders): any
 * seeded password or API key, and any 64-hex-digit run, which is the shape of every API key and
 * login token the emulator issues (so keys of accounts made during the tests are caught too).
 */
const KEY_OR_TOKEN = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/i;

function files(target: string): string[] {
  if (!fs.existsSync(target)) return [];
  if (!fs.statSync(target).isDirectory()) return [target];
  return fs.readdirSync(target).flatMap((name) => files(path.join(target, name)));
}

const secrets = Object.values(seededAccounts()).flatMap((user) => [user.apiKey, user.password]);
const logs = process.argv.slice(2).flatMap(files);
let leaks = 0;
for (const file of logs) {
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (KEY_OR_TOKEN.test(line) || secrets.some((secret) => line.includes(secret))) {
        leaks++;
        const shown = secrets
          .reduce(
            (text, s) => text.split(s).join('<secret>'),
            line.replace(KEY_OR_TOKEN, '<64 hex>'),
          )
          .slice(0, 160);
        console.error(`credential in ${file}:${i + 1}: ${shown}`);
      }
    });
}
console.log(
  `check-no-secrets: ${logs.length} log file(s) scanned, ${leaks} line(s) with a credential`,
);
process.exit(leaks > 0 ? 1 : 0);
