import type { Field, Fields } from '../provider/framework/fields';
import { SETTINGS } from '../provider/framework/settings';
import { KINDS } from '../provider/kinds/index';
import { fieldDocs } from './field-docs';

/**
 * The README's reference tables, one per resource, printed from the resources' field tables
 * (provider/kinds/<kind>/fields.ts), each field's meaning from its entry's JSDoc comment
 * (field-docs.ts), and the table of the `svc:` settings. README.md holds them between the markers
 * below (`npm run generate` writes them there);
 * test/scripts/reference-tables.test.ts keeps the two the same.
 */

export const START_MARKER = '<!-- reference-tables:start (scripts/reference-tables.ts) -->';
export const END_MARKER = '<!-- reference-tables:end -->';
export const SETTINGS_START = '<!-- settings-table:start (scripts/reference-tables.ts) -->';
export const SETTINGS_END = '<!-- settings-table:end -->';

const HEADER = ['field', 'role', 'type', 'default', 'a change', 'rule', 'meaning'];

function role(field: Field): string {
  const parts = [
    field.input === 'required' ? 'required input' : field.input ? 'input' : undefined,
    field.output ? 'output' : undefined,
    field.secret ? 'secret' : undefined,
  ];
  return parts.filter(Boolean).join(', ');
}

function change(field: Field): string {
  const how = field.how ? `: ${field.how}` : '';
  switch (field.change) {
    case 'replace':
      return `replaces${how}`;
    case 'update':
      return `in place${how}`;
    case 'upgrade':
      return `upgrade in place${how}`;
    case 'local':
      return 'no API call';
    default:
      return '';
  }
}

function defaultOf(field: Field): string {
  if (field.defaultText) return field.defaultText;
  return field.default === undefined ? '' : `\`${JSON.stringify(field.default)}\``;
}

function row(name: string, field: Field, doc: string): string[] {
  const type =
    field.arg && field.arg.name !== field.type.name
      ? `${field.arg.name} → ${field.type.name}`
      : field.type.name;
  return [
    `\`${name}\``,
    role(field),
    type,
    defaultOf(field),
    change(field),
    field.rule?.text ?? '',
    doc,
  ];
}

/** A Markdown table laid out as prettier lays it out (columns padded to their widest cell). */
export function markdownTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(3, ...rows.map((r) => [...r[i]].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell + ' '.repeat(widths[i] - [...cell].length)).join(' | ')} |`;
  return [line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join(
    '\n',
  );
}

function table(kind: string, fields: Fields, docs?: ReadonlyMap<string, string>): string {
  const rows = Object.entries(fields)
    .filter(([, field]) => !field.internal)
    .map(([name, field]) => {
      const doc = docs?.get(name);
      if (!doc) throw new Error(`${kind}.${name} has no JSDoc comment in its field table`);
      return row(name, field, doc);
    });
  return `#### ${kind}\n\n${markdownTable([HEADER, ...rows])}`;
}

/** What README.md holds between the markers. */
export function referenceTables(): string {
  const docs = fieldDocs();
  const tables = Object.entries(KINDS).map(([kind, { fields }]) =>
    table(kind, fields, docs.get(kind)),
  );
  return `${START_MARKER}\n\n${tables.join('\n\n')}\n\n${END_MARKER}`;
}

/** What README.md holds between the settings markers: the `svc:` settings (framework/settings.ts). */
export function settingsTable(): string {
  const rows = SETTINGS.map(({ key, secret, env, file, default: value, description }) => [
    `\`svc:${key}\`${secret ? ' (secret)' : ''}`,
    `\`${env}\``,
    file ? `\`${file}\`` : '',
    value === undefined ? '' : `\`${String(value)}\``,
    description,
  ]);
  const header = ['key', 'environment', 'in `~/.svc`', 'default', 'meaning'];
  return `${SETTINGS_START}\n\n${markdownTable([header, ...rows])}\n\n${SETTINGS_END}`;
}
