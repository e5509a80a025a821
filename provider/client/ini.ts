import { SvcError } from './errors';

/**
 * A small strict INI reader for the settings file. Not the `ini` package: it treats `;` and `#`
 * inside an unquoted value as the start of a comment, which silently truncates API keys that
 * contain them. Here, as in Python's configparser (which the reference client's users already
 * write files for), `;` and `#` start a comment only at the beginning of a line.
 *
 * Grammar: blank lines; comment lines; `[section]`; `key = value` or `key: value` (key
 * case-insensitive, value trimmed, one pair of surrounding quotes removed). Anything else, a key
 * before the first section, or a repeated key or section is an error naming the file and line.
 * Errors never quote the offending line: it may hold a secret.
 */

export type IniSections = Map<string, Map<string, string>>;

export class IniSyntaxError extends SvcError {
  constructor(
    readonly file: string,
    readonly line: number,
    problem: string,
  ) {
    super(`Cannot read settings file ${file}, line ${line}: ${problem}`);
  }
}

const SECTION = /^\[([^\]]*)\]$/;
const ENTRY = /^([^=:]+?)\s*[=:]\s*(.*)$/;

function unquote(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first)) {
    return value.slice(1, -1);
  }
  return value;
}

export function parseIni(text: string, file: string): IniSections {
  const sections: IniSections = new Map();
  let current: Map<string, string> | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    const fail = (problem: string) => new IniSyntaxError(file, index + 1, problem);
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const section = SECTION.exec(line);
    if (section) {
      const name = section[1].trim();
      if (name === '') throw fail('empty section name');
      if (sections.has(name)) throw fail(`section [${name}] appears twice`);
      current = new Map();
      sections.set(name, current);
      return;
    }
    const entry = ENTRY.exec(line);
    if (!entry) throw fail("expected '[section]', 'key = value' or a comment line");
    if (!current) throw fail('a setting before the first [section]');
    const key = entry[1].trim().toLowerCase();
    if (current.has(key)) throw fail(`setting '${key}' appears twice in the section`);
    current.set(key, unquote(entry[2].trim()));
  });
  return sections;
}
