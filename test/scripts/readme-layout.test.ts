import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

// README's "Layout" lists what is in the repository: every top-level folder and every folder
// directly under examples/ and sdk/ has a line of its own, and every line names a folder that
// holds files git sees (an ignored one, such as the generated sdk/nodejs/, is not there).

/** Folders whose every subfolder is listed too: each is a thing a reader picks on its own. */
const LISTED_WHOLE = ['examples/', 'sdk/'];

/** Every folder of the repository (`a/`, `a/b/`, ...) holding a file that is tracked or not ignored. */
function repositoryFolders(): Set<string> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
  }).split('\n');
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    parts.forEach((_, i) => folders.add(`${parts.slice(0, i + 1).join('/')}/`));
  }
  return folders;
}

/** The folders the Layout section's block names, one per line, each at the start of its line. */
export function layoutFolders(readme: string): string[] {
  const section = /^## Layout\n([^]*?)(?=^## |(?![^]))/m.exec(readme)?.[1];
  const block = section && /^```\n([^]*?)^```$/m.exec(section)?.[1];
  assert.ok(block, 'README.md has a "## Layout" section with a code block');
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => /^(\S+\/)(\s|$)/.exec(line)?.[1] ?? `(no folder at the start of: ${line})`);
}

/** What the layout gets wrong: folders it leaves out, and names that are not folders here. */
export function layoutProblems(listed: string[], folders: Set<string>): string[] {
  const required = [...folders].filter((folder) => {
    const depth = folder.split('/').length - 1;
    return depth === 1 || (depth === 2 && LISTED_WHOLE.some((top) => folder.startsWith(top)));
  });
  const named = new Set(listed);
  return [
    ...required.filter((folder) => !named.has(folder)).map((f) => `not listed: ${f}`),
    ...listed
      .filter((folder) => !folders.has(folder))
      .map((f) => `named, not a folder of the repository: ${f}`),
  ].sort();
}

it("README's Layout lists every top-level, examples/ and sdk/ folder, and nothing that is not there", () => {
  const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
  assert.deepEqual(layoutProblems(layoutFolders(readme), repositoryFolders()), []);
});

it('a folder left out, a path that is not there, or a line without a folder is reported', () => {
  const folders = new Set([
    'a/',
    'a/b/',
    'examples/',
    'examples/one/',
    'examples/one/src/',
    'sdk/',
  ]);
  const readme = [
    '# Project',
    '## Layout',
    '',
    '```',
    'a/              the a',
    'examples/       projects: one',
    'sdk/nodejs/     generated, ignored',
    '  continued     prose',
    '```',
    '',
    '## Next',
    '```',
    'not/            another block',
    '```',
  ].join('\n');
  const listed = layoutFolders(readme);
  assert.deepEqual(listed, [
    'a/',
    'examples/',
    'sdk/nodejs/',
    '(no folder at the start of:   continued     prose)',
  ]);
  assert.deepEqual(layoutProblems(listed, folders), [
    'named, not a folder of the repository: (no folder at the start of:   continued     prose)',
    'named, not a folder of the repository: sdk/nodejs/',
    'not listed: examples/one/',
    'not listed: sdk/',
  ]);
});
