import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { it } from 'node:test';
import { DOCS_DIR, referenceDocs } from '../../scripts/reference-docs';
import { KINDS, LOOKUPS } from '../../provider/kinds/index';

it("docs/ is exactly the reference docs scripts/reference-docs.ts generates from the plugin's schema", () => {
  const generated = referenceDocs();
  const committed = readdirSync(DOCS_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(DOCS_DIR, join(entry.parentPath, entry.name)));
  const fix = 'run `npm run generate` and commit docs/';
  assert.deepEqual(committed.sort(), [...generated.keys()].sort(), fix);
  for (const [file, text] of generated)
    assert.equal(readFileSync(join(DOCS_DIR, file), 'utf8'), `${text}\n`, `docs/${file}: ${fix}`);
});

it('a page per resource and function, each with its example in four languages', () => {
  const docs = referenceDocs();
  const pages = [...docs.keys()].filter((file) => file.startsWith('api-docs/'));
  const kinds = Object.keys(KINDS).length;
  const functions = Object.keys(LOOKUPS).length;
  assert.ok(kinds >= 6 && functions >= 10);
  assert.equal(pages.length, kinds + functions, 'a page per resource kind and per function');
  for (const file of pages) {
    for (const language of ['typescript', 'python', 'go', 'yaml'])
      assert.match(docs.get(file)!, new RegExp(`\`\`\`${language}\\n`), `${file}: ${language}`);
  }
  assert.match(
    docs.get('api-docs/virtualguest.md')!,
    /## Import\n\n```sh\n\$ pulumi import svc:index:VirtualGuest web \d+/,
  );
  assert.doesNotMatch(docs.get('api-docs/ticketupdate.md')!, /## Import/);
});

it('_index.md has an example in every language; installation-configuration.md each install command and the config lines', () => {
  const docs = referenceDocs();
  const index = docs.get('_index.md')!;
  assert.match(index, /## Example\n/);
  for (const language of ['typescript', 'python', 'go', 'yaml'])
    assert.match(index, new RegExp(`\`\`\`${language}\\n`), `_index.md: ${language}`);
  const install = docs.get('installation-configuration.md')!;
  for (const command of [
    /^npm install @pulumi-svc\/svc/m,
    /^pip install pulumi_svc$/m,
    /^go get github\.com\/pulumi-svc\/pulumi-svc\/sdk@v\d+\.\d+\.\d+$/m,
    /^pulumi plugin install resource svc \d+\.\d+\.\d+ --server /m,
    /^pulumi config set svc:username <username>$/m,
    // The key as a secret: encrypted in the stack's config, never in plain text.
    /^pulumi config set --secret svc:apiKey <apiKey>$/m,
  ])
    assert.match(install, command);
  assert.doesNotMatch(install, /^pulumi config set svc:apiKey/m);
});

it('a resource page names each property, constructor and get as the Python and Go SDKs spell them', () => {
  const docs = referenceDocs();
  const sdk = (file: string) => readFileSync(join(DOCS_DIR, '..', 'sdk', file), 'utf8');
  for (const kind of Object.keys(KINDS)) {
    const page = docs.get(`api-docs/${kind.toLowerCase()}.md`)!;
    assert.match(page, new RegExp(`## Create a ${kind} resource\n`));
    assert.match(page, new RegExp(`## Look up an existing ${kind} resource\n`));
    const python = sdk(
      `python/pulumi_svc/${kind.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}.py`,
    );
    const go = sdk(`go/svc/${kind[0].toLowerCase()}${kind.slice(1)}.go`);
    assert.match(go, new RegExp(`^func New${kind}\\(ctx \\*pulumi\\.Context,`, 'm'));
    assert.match(go, new RegExp(`^func Get${kind}\\(ctx \\*pulumi\\.Context,`, 'm'));
    assert.match(python, /def get\(resource_name: str,/);
    const rows = [...page.matchAll(/^\| `\w+` \| `(\w+)` · `(\w+)` \|/gm)];
    assert.ok(rows.length > 0, `${kind}: its properties by language`);
    for (const [, py, goName] of rows) {
      assert.match(python, new RegExp(`def ${py}\\(self\\)`), `${kind}: Python ${py}`);
      assert.match(go, new RegExp(`\\) ${goName}\\(\\)`), `${kind}: Go ${goName}`);
    }
  }
});

it("a function page's calls and argument names are those the Python and Go SDKs declare", () => {
  const docs = referenceDocs();
  const sdk = (file: string) => readFileSync(join(DOCS_DIR, '..', 'sdk', file), 'utf8');
  for (const name of Object.keys(LOOKUPS)) {
    const page = docs.get(`api-docs/${name.toLowerCase()}.md`)!;
    const snakeName = name.replace(/([A-Z])/g, '_$1').toLowerCase();
    const python = sdk(`python/pulumi_svc/${snakeName}.py`);
    const go = sdk(`go/svc/${name}.go`);
    // Go's generator names a lookup of one of the package's resources LookupX.
    const Name = (name.slice(3) in KINDS ? 'Lookup' : 'Get') + name.slice(3);
    assert.match(page, new RegExp(`## Using ${name}\n`));
    // Each Python form's name and arguments, in order, as the generated SDK defines them.
    for (const fn of [snakeName, `${snakeName}_output`]) {
      const argsOf = (text: string) =>
        [...new RegExp(`^def ${fn}\\(([^)]*?)\\) ->`, 'ms').exec(text)![1].matchAll(/(\w+):/g)].map(
          (m) => m[1],
        );
      assert.deepEqual(argsOf(page), argsOf(python), `${name}: Python ${fn}`);
    }
    for (const fn of [Name, `${Name}Output`]) {
      const signature = new RegExp(
        `^func ${fn}\\(ctx \\*pulumi\\.Context, args \\*?${Name}(Output)?Args,`,
        'm',
      );
      assert.match(go, signature, `${name}: Go ${fn} in the SDK`);
      assert.match(page, signature, `${name}: Go ${fn} on the page`);
    }
    // The result's fields: a method of the Go result output, a property of the Python result.
    const results = page.slice(page.indexOf('## Result'));
    const rows = [...results.matchAll(/^\| `\w+` \| `(\w+)` · `(\w+)` \|/gm)];
    assert.ok(rows.length > 0, `${name}: its result by language`);
    for (const [, py, goName] of rows) {
      assert.match(go, new RegExp(`ResultOutput\\) ${goName}\\(\\)`), `${name}: Go ${goName}`);
      assert.match(python, new RegExp(`def ${py}\\(self\\)`), `${name}: Python ${py}`);
    }
  }
});
