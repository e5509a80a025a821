import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { markdownFiles } from '../support/markdown-files';

// Every relative link of the repository's Markdown files (`[text](path)`, `[text](path#anchor)`,
// `[label]: path`) names a file or folder inside the repository, and an anchor names a heading of
// the Markdown file it points at (GitHub's slugs). Links in code blocks and spans are not links.

const withoutFences = (text: string) => text.replace(/^(```|~~~)[^]*?^\1/gm, '');

/** The text outside fenced code blocks and code spans. */
const prose = (text: string) => withoutFences(text).replace(/`[^`\n]*`/g, '');

const LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;

/** GitHub's anchor for each heading of a Markdown text (`## The emulator` -> `the-emulator`). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

/** The links of `file` (its `text`) that resolve to nothing in the repository. */
function brokenLinks(
  file: string,
  text = readFileSync(join(PACKAGE_ROOT, file), 'utf8'),
): string[] {
  const broken: string[] = [];
  for (const match of prose(text).matchAll(LINK)) {
    const target = match[1] ?? match[2];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
    const [path, anchor] = target.split('#', 2);
    if (path === '') {
      if (!anchors(text).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      continue;
    }
    const absolute = resolve(PACKAGE_ROOT, dirname(file), path);
    const inside = relative(PACKAGE_ROOT, absolute);
    if (inside.startsWith('..') || !existsSync(absolute)) {
      broken.push(`${file}: ${target} (no such file in the repository)`);
    } else if (anchor !== undefined && absolute.endsWith('.md')) {
      if (!anchors(readFileSync(absolute, 'utf8')).has(anchor))
        broken.push(`${file}: ${target} (no heading #${anchor} in ${inside})`);
    }
  }
  return broken;
}

it('every relative link in the Markdown files resolves inside the repository', () => {
  const files = markdownFiles();
  assert.ok(files.includes('README.md') && files.includes('CONTRIBUTING.md'), files.join(', '));
  assert.deepEqual(
    files.flatMap((file) => brokenLinks(file)),
    [],
  );
});

it('a link to a missing file, outside the repository, or to a missing heading is reported', () => {
  const text = [
    '# Notes',
    '[ok](README.md#the-emulator), [folder](examples), [here](#notes), [web](https://example.com)',
    '[gone](#nothing)',
    '[missing](nowhere.md), [outside](../elsewhere/README.md), [heading](README.md#no-such-heading)',
    '`[code](gone.md)`',
    '```',
    '[fenced](gone.md)',
    '```',
    '[ref]: emulator/missing.md',
  ].join('\n');
  assert.deepEqual(brokenLinks('NOTES.md', text), [
    'NOTES.md: #nothing (no such heading)',
    'NOTES.md: nowhere.md (no such file in the repository)',
    'NOTES.md: ../elsewhere/README.md (no such file in the repository)',
    'NOTES.md: README.md#no-such-heading (no heading #no-such-heading in README.md)',
    'NOTES.md: emulator/missing.md (no such file in the repository)',
  ]);
  assert.deepEqual(
    anchors('# A title\n## The provider plugin: `pulumi import`, and more\n## A title\n'),
    new Set(['a-title', 'the-provider-plugin-pulumi-import-and-more', 'a-title-1']),
  );
});
