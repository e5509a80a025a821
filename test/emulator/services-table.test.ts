import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { END_MARKER, START_MARKER, servicesTable } from '../../emulator/services-table';

it("emulator/README.md's service table is exactly what emulator/services-table.ts prints from the registry", () => {
  const readme = readFileSync(join(__dirname, '../../emulator/README.md'), 'utf8');
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  assert.ok(start >= 0 && end > start, 'emulator/README.md has both markers, in order');
  assert.equal(
    readme.slice(start, end + END_MARKER.length),
    servicesTable(),
    'run `npm run generate` and commit emulator/README.md',
  );
});
