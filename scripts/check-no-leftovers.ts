import { setTimeout as sleep } from 'node:timers/promises';
import { commandLine, descendants, killTree, livePids } from './processes';

/**
 * Run after the tests (scripts/run-tests): fails when a process the tests started is still alive.
 * Everything the tests start inherits SVC_TEST_RUN from the runner, so this finds a leftover even
 * after its parent died. Leftovers are listed, then killed, so one bad run does not spoil the next.
 */
async function main(run: string): Promise<number> {
  // The runner (our parent) and our own helpers (tsx's esbuild) carry the marker too; the tests'
  // own children may still be exiting.
  const leftovers = () => {
    const ours = new Set([process.ppid, ...descendants(process.pid)]);
    return livePids('SVC_TEST_RUN', run).filter((pid) => !ours.has(pid));
  };
  let left = leftovers();
  for (let waited = 0; left.length > 0 && waited < 5_000; waited += 250) {
    await sleep(250);
    left = leftovers();
  }
  if (left.length === 0) {
    console.log('check-no-leftovers: no process outlived the tests');
    return 0;
  }
  console.error('check-no-leftovers: processes started by the tests are still running:');
  for (const pid of left) console.error(`  ${pid} ${commandLine(pid)}`);
  for (const pid of left) killTree(pid);
  return 1;
}

const run = process.env.SVC_TEST_RUN;
if (!run) {
  console.error('check-no-leftovers: SVC_TEST_RUN is not set');
  process.exit(2);
}
void main(run).then((code) => process.exit(code));
