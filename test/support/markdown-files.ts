import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

/** The repository's Markdown files, tracked or new (not ignored), relative to its root. */
export const markdownFiles = () =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && existsSync(join(PACKAGE_ROOT, file)));
