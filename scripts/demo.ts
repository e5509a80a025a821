import * as path from 'node:path';
import { parseBillingArgs, printBilling } from '../commands/billing-command';
import { DEMO_PORT, DEMO_PROJECT, DEMO_STATE, withDemoStack } from './demo-stack';
import { PACKAGE_ROOT, offlineEnv, pulumiBinDir } from './pulumi-cli';

const rel = (p: string) => path.relative(process.cwd(), p) || '.';

/**
 * `npm run demo` (up), `npm run preview`, `npm run billing`, `npm run destroy`: the Pulumi CLI on
 * the quickstart project against the local emulator, with Pulumi's own progress output. State and
 * emulator data stay in .state/demo, so a second `npm run demo` shows no changes.
 */
async function main(action: string): Promise<void> {
  if (action === 'env') {
    const env = {
      ...offlineEnv(path.join(DEMO_STATE, 'backend')),
      PATH: `${pulumiBinDir()}:$PATH`,
    };
    console.log(
      `export ${Object.entries(env)
        .map(([k, v]) => `${k}="${v}"`)
        .join(' ')}`,
    );
    return;
  }
  await withDemoStack(async (stack, endpoint) => {
    if (action === 'billing') {
      process.exitCode = await printBilling(
        stack.dir,
        parseBillingArgs(['--stack', 'demo']),
        stack.env,
      );
      return;
    }
    if (action === 'destroy') await stack.destroy([], 'inherit');
    else if (action === 'preview') await stack.preview(['--diff'], 'inherit');
    else {
      await stack.up([], 'inherit');
    }
    console.log(`\nPulumi project: ${rel(DEMO_PROJECT)} (stack "demo")`);
    console.log(`Pulumi state:   ${rel(path.join(DEMO_STATE, 'backend'))}`);
    console.log(`Emulator data:  ${rel(path.join(DEMO_STATE, 'emulator'))} (${endpoint})`);
    if (action === 'up') {
      console.log(
        '\nRun `npm run demo` again to see no changes, `npm run destroy` to tear it down.',
      );
      console.log('To run the Pulumi CLI yourself on the same stack:');
      console.log(
        `  npx svc-emulator --port ${DEMO_PORT} --data-dir ${rel(path.join(DEMO_STATE, 'emulator'))} --seed demo &`,
      );
      console.log(`  eval "$(${rel(path.join(PACKAGE_ROOT, 'scripts', 'demo'))} env)"`);
      console.log(`  cd ${rel(DEMO_PROJECT)} && pulumi up --stack demo`);
    }
  });
}

main(process.argv[2] ?? 'up').catch((err: Error) => {
  console.error(`\n${process.argv[2] ?? 'up'} failed: ${err.message}`);
  process.exit(1);
});
