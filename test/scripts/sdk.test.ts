import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { lockedVersion } from '../stack/projects';
import { goEnv } from '../stack/go-env';

const run = promisify(execFile);

/** Every file under `dir`, relative to it, with its content. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), fs.readFileSync(file, 'utf8'));
  }
  return files;
}

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sdk-'));
after(() => fs.rmSync(out, { recursive: true, force: true }));

it("the committed SDKs (sdk/python, sdk/go) are what Pulumi's code generators make of the plugin's schema", async () => {
  await run(
    path.join(PACKAGE_ROOT, 'scripts', 'gen-sdk', 'run'),
    [path.join(PACKAGE_ROOT, 'provider', 'plugin', 'schema.json'), out],
    { timeout: 15 * 60_000 },
  );
  // The TypeScript SDK is generated but not kept (see .gitignore): it must at least be made.
  assert.match(
    fs.readFileSync(path.join(out, 'nodejs', 'virtualGuest.ts'), 'utf8'),
    /export class VirtualGuest extends pulumi\.CustomResource/,
  );
  for (const language of ['python', 'go']) {
    const generated = tree(path.join(out, language));
    const committed = tree(path.join(PACKAGE_ROOT, 'sdk', language));
    assert.deepEqual(
      [...committed.keys()].sort(),
      [...generated.keys()].sort(),
      `sdk/${language}: run \`npm run generate\` and commit it`,
    );
    for (const [file, text] of generated) {
      assert.equal(
        committed.get(file),
        text,
        `sdk/${language}/${file} differs from the generator's: run \`npm run generate\``,
      );
    }
  }
});

it("the Go SDK's module and the Go example require the Pulumi Go SDK at the CLI's version", () => {
  const version = lockedVersion('@pulumi/pulumi');
  for (const goMod of ['sdk/go.mod', 'examples/go-guest/go.mod']) {
    assert.match(
      fs.readFileSync(path.join(PACKAGE_ROOT, goMod), 'utf8'),
      new RegExp(`^\\s*github\\.com/pulumi/pulumi/sdk/v3 v${version.replace(/\./g, '\\.')}$`, 'm'),
      goMod,
    );
  }
});

/** Each resource's and function's example in `language`, from the schema's descriptions. */
function schemaExamples(language: string): Map<string, string> {
  const schema = JSON.parse(
    fs.readFileSync(path.join(PACKAGE_ROOT, 'provider', 'plugin', 'schema.json'), 'utf8'),
  ) as Record<'resources' | 'functions', Record<string, { description: string }>>;
  const fence = new RegExp(`\`\`\`${language}\\n([^]*?)\\n\`\`\``);
  return new Map(
    Object.entries({ ...schema.resources, ...schema.functions }).map(([token, { description }]) => [
      token.split(':')[2],
      fence.exec(description)![1],
    ]),
  );
}

it("the schema's Go and TypeScript examples compile against the generated SDKs", async () => {
  const go = path.join(out, 'examples-go');
  for (const [name, code] of schemaExamples('go')) {
    fs.mkdirSync(path.join(go, name), { recursive: true });
    fs.writeFileSync(path.join(go, name, 'main.go'), code);
  }
  // The Go example's module (its requirements, go.sum), on this checkout's SDK.
  const goMod = fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'go-guest', 'go.mod'), 'utf8');
  fs.writeFileSync(
    path.join(go, 'go.mod'),
    goMod
      .replace(/^module .*$/m, 'module examples')
      .replace(/=> \.\.\/\.\.\/sdk$/m, `=> ${path.join(PACKAGE_ROOT, 'sdk')}`),
  );
  fs.copyFileSync(
    path.join(PACKAGE_ROOT, 'examples', 'go-guest', 'go.sum'),
    path.join(go, 'go.sum'),
  );
  const env = { ...process.env, ...(await goEnv()) };
  await run('go', ['vet', './...'], { cwd: go, env, timeout: 10 * 60_000 });

  const ts = path.join(out, 'examples-ts');
  for (const [name, code] of schemaExamples('typescript')) {
    fs.mkdirSync(path.join(ts, name), { recursive: true });
    fs.writeFileSync(path.join(ts, name, 'index.ts'), code);
  }
  const modules = path.join(PACKAGE_ROOT, 'node_modules');
  fs.writeFileSync(
    path.join(ts, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'commonjs',
        moduleResolution: 'node',
        target: 'es2022',
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(modules, '@types')],
        paths: {
          '@pulumi-svc/svc': [path.join(out, 'nodejs', 'index.ts')],
          '@pulumi/pulumi': [path.join(modules, '@pulumi', 'pulumi')],
          '@pulumi/pulumi/*': [path.join(modules, '@pulumi', 'pulumi', '*')],
        },
      },
      include: ['*/index.ts'],
    }),
  );
  await run(process.execPath, [path.join(modules, 'typescript', 'bin', 'tsc'), '-p', ts], {
    timeout: 5 * 60_000,
  });
});
