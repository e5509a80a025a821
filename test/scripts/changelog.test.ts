import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { changelogSection } from '../../scripts/release/changelog';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

const CHANGELOG = `# Changelog

## 1.2.0 - 2027-01-02

- new

## [1.1.0]

- older
`;

it("a release's notes are its version's section of CHANGELOG.md, up to the next", () => {
  assert.equal(changelogSection(CHANGELOG, '1.2.0'), '## 1.2.0 - 2027-01-02\n\n- new\n');
  assert.equal(changelogSection(CHANGELOG, '1.1.0'), '## [1.1.0]\n\n- older\n');
  // 1.1 is not 1.1.0, and a dot is not any character.
  assert.throws(() => changelogSection(CHANGELOG, '1.1'), /no "## 1.1" section/);
  assert.throws(() => changelogSection(CHANGELOG, '1x2.0'), /no "## 1x2.0" section/);
});

it("the root CHANGELOG.md has a section for package.json's version", () => {
  const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const changelog = readFileSync(join(PACKAGE_ROOT, 'CHANGELOG.md'), 'utf8');
  assert.match(changelogSection(changelog, version), new RegExp(`^## ${version}`));
});
