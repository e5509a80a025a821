import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
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

/** How each language's SDK (or the plugin alone, for YAML) installs from a release. */
const RELEASE_ROUTES: Record<string, RegExp> = {
  yaml: /pulumi plugin install resource svc <version> --server <release URL>/,
  python: /pip install [^\n]*pulumi_svc-<version>-py3-none-any\.whl/,
  go: /GOPROXY=file:\/\/<release>\/go[^\n]*\n?[^\n]*go get github\.com\/pulumi-svc\/pulumi-svc\/sdk@v<version>/,
  nodejs: /npm install pulumi-svc-svc-<version>\.tgz @pulumi\/pulumi/,
};

it("every example on the provider plugin shows its language's install route from a release, and `pulumi import`", () => {
  const onPlugin = fs
    .readdirSync('examples')
    .filter((name) => fs.existsSync(path.join('examples', name, 'Pulumi.yaml')))
    .map((name) => {
      const project = fs.readFileSync(path.join('examples', name, 'Pulumi.yaml'), 'utf8');
      const runtime = /^runtime: (\w+)/m.exec(project)![1];
      const sdk = fs.existsSync(path.join('examples', name, 'package.json'))
        ? JSON.parse(fs.readFileSync(path.join('examples', name, 'package.json'), 'utf8'))
        : {};
      // A TypeScript program is on the plugin through its SDK, else on the dynamic classes.
      const plugin = runtime !== 'nodejs' || '@pulumi-svc/svc' in (sdk.dependencies ?? {});
      return { name, runtime, plugin };
    })
    .filter((example) => example.plugin);
  assert.deepEqual(onPlugin.map((e) => e.name).sort(), [
    'go-guest',
    'python-web-tier',
    'typescript-sdk',
    'yaml-guest',
  ]);
  for (const { name, runtime } of onPlugin) {
    const readme = fs.readFileSync(path.join('examples', name, 'README.md'), 'utf8');
    assert.match(readme, RELEASE_ROUTES[runtime], `${name}: the ${runtime} route from a release`);
    assert.match(readme, /pulumi import svc:index:VirtualGuest /, `${name}: pulumi import`);
  }
});
