import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { markdownFiles } from '../support/markdown-files';

// A code block of a Markdown file whose first line is `// <path>` is an excerpt of that file:
// its lines (less blank lines and `// …`, which marks what is left out) are in the file, in the
// same order, whatever their indentation. So a guide that shows live code says when the code moves.

const EXCERPT = /^([ \t]*)(```|~~~)[a-z]*\n[ \t]*\/\/ ([\w./-]+\.\w+)\n([^]*?)^\1\2$/gm;
const OMITTED = /^\/\/ …$/;

const trimmedLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !OMITTED.test(line));

/** What is wrong with each excerpt of `text` (a Markdown file's), against the repository's files. */
export function excerptProblems(
  file: string,
  text: string,
  read = (path: string) =>
    existsSync(join(PACKAGE_ROOT, path)) ? readFileSync(join(PACKAGE_ROOT, path), 'utf8') : null,
): string[] {
  const problems: string[] = [];
  for (const [, , , path, body] of text.matchAll(EXCERPT)) {
    const source = read(path);
    if (source === null) {
      problems.push(`${file}: an excerpt of ${path}, which does not exist`);
      continue;
    }
    const lines = trimmedLines(source);
    let at = 0;
    for (const line of trimmedLines(body)) {
      const found = lines.indexOf(line, at);
      if (found < 0) {
        problems.push(
          `${file}: "${line}" is not in ${path} (after what the excerpt shows before it)`,
        );
        break;
      }
      at = found + 1;
    }
  }
  return problems;
}

it('every excerpt in the Markdown files is in the file it names, in order', () => {
  const guide = 'emulator/ADDING-A-SERVICE.md';
  const guideText = readFileSync(join(PACKAGE_ROOT, guide), 'utf8');
  assert.ok([...guideText.matchAll(EXCERPT)].length >= 4, `${guide} shows live code`);
  assert.deepEqual(
    markdownFiles().flatMap((file) =>
      excerptProblems(file, readFileSync(join(PACKAGE_ROOT, file), 'utf8')),
    ),
    [],
  );
});

it('an excerpt whose lines moved, changed or whose file is gone is reported', () => {
  const source = 'const a = 1;\n\nfunction f() {\n  return a;\n}\n';
  const read = (path: string) => (path === 'src/a.ts' ? source : null);
  const doc = (body: string, path = 'src/a.ts') =>
    `Text\n\n   \`\`\`ts\n   // ${path}\n${body}   \`\`\`\n`;
  assert.deepEqual(
    excerptProblems('G.md', doc('   const a = 1;\n   // …\n   return a;\n'), read),
    [],
  );
  assert.deepEqual(excerptProblems('G.md', doc('   return a;\n   const a = 1;\n'), read), [
    'G.md: "const a = 1;" is not in src/a.ts (after what the excerpt shows before it)',
  ]);
  assert.deepEqual(excerptProblems('G.md', doc('   const a = 2;\n'), read), [
    'G.md: "const a = 2;" is not in src/a.ts (after what the excerpt shows before it)',
  ]);
  assert.deepEqual(excerptProblems('G.md', doc('   x;\n', 'src/gone.ts'), read), [
    'G.md: an excerpt of src/gone.ts, which does not exist',
  ]);
  // A block that names no file is no excerpt.
  assert.deepEqual(excerptProblems('G.md', '```ts\nconst b = 3;\n```\n', read), []);
});
