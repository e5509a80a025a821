import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { END_MARKER, START_MARKER, referenceTables } from '../../scripts/reference-tables';

it("README's reference tables are exactly what scripts/reference-tables.ts prints from the field tables", () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  assert.ok(start >= 0 && end > start, 'README.md has both markers, in order');
  assert.equal(
    readme.slice(start, end + END_MARKER.length),
    referenceTables(),
    'regenerate: node --import tsx scripts/reference-tables.ts, and paste between the markers',
  );
});
