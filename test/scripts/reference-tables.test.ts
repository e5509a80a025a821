import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import {
  END_MARKER,
  SETTINGS_END,
  SETTINGS_START,
  START_MARKER,
  referenceTables,
  settingsTable,
} from '../../scripts/reference-tables';

const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');

/** README's text from `start` to `end`, both included. */
function between(start: string, end: string): string {
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  assert.ok(from >= 0 && to > from, `README.md has ${start} and ${end}, in order`);
  return readme.slice(from, to + end.length);
}

const REGENERATE = 'run `npm run generate` and commit README.md';

it("README's reference tables are exactly what scripts/reference-tables.ts prints from the field tables", () => {
  assert.equal(between(START_MARKER, END_MARKER), referenceTables(), REGENERATE);
});

it("README's table of the svc: settings is exactly what the settings table makes of it", () => {
  assert.equal(between(SETTINGS_START, SETTINGS_END), settingsTable(), REGENERATE);
});
