import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { it } from 'node:test';
import { PIECES } from '../../scripts/generate';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

const THIS = relative(PACKAGE_ROOT, __filename);
const read = (file: string) => readFileSync(join(PACKAGE_ROOT, file), 'utf8');

/** Every test file of the repository, relative to it. */
const testFiles = () =>
  readdirSync(join(PACKAGE_ROOT, 'test'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => relative(PACKAGE_ROOT, join(entry.parentPath, entry.name)));

it('`npm run generate` runs scripts/generate.ts', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  assert.equal(scripts.generate, 'node --import tsx scripts/generate.ts');
});

it("the tests that keep generated files equal are exactly the generator's pieces, one each", () => {
  // A test whose fix is `npm run generate` checks a piece; a piece without such a test, or such a
  // test without a piece, is output nothing keeps honest or a check the command does not satisfy.
  const checking = testFiles().filter(
    (file) => file !== THIS && /run \\?`npm run generate\\?`/.test(read(file)),
  );
  const tests = PIECES.map((piece) => piece.test);
  assert.equal(new Set(tests).size, tests.length, 'one test per piece');
  assert.deepEqual(checking.sort(), [...tests].sort());
});

it("CONTRIBUTING says to run it and names each piece's output", () => {
  const contributing = read('CONTRIBUTING.md').replace(/\s+/g, ' ');
  assert.match(contributing, /run `npm run generate`/);
  for (const output of PIECES.flatMap((piece) => piece.outputs))
    assert.ok(contributing.includes(output), `CONTRIBUTING.md names ${output}`);
});
