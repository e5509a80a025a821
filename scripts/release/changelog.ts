/**
 * The section of CHANGELOG.md for `version`: from its `## <version>` heading (`## v<version>`
 * and `## [<version>]` too, with anything after it such as a date) up to the next `## ` heading.
 * A release needs its notes: no such section is an error.
 */
export function changelogSection(changelog: string, version: string): string {
  const lines = changelog.split('\n');
  const escaped = version.replace(/\./g, '\\.');
  const heading = new RegExp(`^## \\[?v?${escaped}\\]?(\\s|$)`);
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) throw new Error(`CHANGELOG.md has no "## ${version}" section`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return `${lines
    .slice(start, end < 0 ? undefined : end)
    .join('\n')
    .trim()}\n`;
}
