import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { startEmulator } from '../emulator';

it('the README client quick start runs as written against the emulator', async () => {
  const emulator = await startEmulator({ port: 0, seed: 'demo' });
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'examples/client/quickstart.ts'],
      {
        env: {
          ...process.env,
          SVC_ENDPOINT_URL: emulator.url,
          SVC_USERNAME: emulator.credentials.username,
          SVC_API_KEY: emulator.credentials.apiKey,
        },
      },
    );
    assert.match(stdout, new RegExp(`^account: ${emulator.accounts.demo.companyName}$`, 'm'));
    assert.match(stdout, /^\d+ guest\(s\) in dal10$/m);
  } finally {
    await emulator.close();
  }
});
