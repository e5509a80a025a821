import * as path from 'node:path';
import { DEMO_STATE, withDemoStack } from './demo-stack';

/**
 * `npm run demo` (up), `npm run preview`, `npm run destroy`: the quickstart stack against the
 * local emulator, with Pulumi's own progress output. State and emulator data stay in .state/demo,
 * so a second `npm run demo` shows no changes.
 */
async function main(action: string): Promise<void> {
  await withDemoStack('demo', async (stack, endpoint) => {
    const onOutput = (text: string) => process.stdout.write(text);
    if (action === 'destroy') {
      await stack.destroy({ onOutput, color: 'auto' });
    } else if (action === 'preview') {
      await stack.preview({ onOutput, color: 'auto', diff: true });
    } else {
      await stack.up({ onOutput, color: 'auto' });
      console.log('\nStack outputs:');
      for (const [key, output] of Object.entries(await stack.outputs())) {
        console.log(`  ${key}: ${output.secret ? '[secret]' : JSON.stringify(output.value)}`);
      }
    }
    console.log(`\nPulumi state:  ${path.join(DEMO_STATE, 'backend')} (stack "demo")`);
    console.log(
      `Emulator data: ${path.join(DEMO_STATE, 'emulator')} (served at ${endpoint} while a command runs)`,
    );
    if (action === 'up')
      console.log('Run `npm run demo` again to see no changes, `npm run destroy` to tear it down.');
  });
}

main(process.argv[2] ?? 'up').catch((err: Error) => {
  console.error(`\n${process.argv[2] ?? 'up'} failed: ${err.message}`);
  process.exit(1);
});
