import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as services from '../emulator/services-table';
import { SCHEMA_FILE, writeSchema } from './plugin-schema';
import { writeReferenceDocs } from './reference-docs';
import * as tables from './reference-tables';

/**
 * `npm run generate`: everything the repository derives from its registries, rewritten in the
 * order each reads the one before (the SDKs and docs read the schema file). Each piece names the
 * test that keeps its committed output equal to what it writes; test/scripts/generate.test.ts
 * keeps this list and those tests the same.
 */

const ROOT = join(__dirname, '..');

export interface Piece {
  /** What it writes, relative to the repository. */
  outputs: string[];
  /** The test that fails when the committed outputs differ from what `write` makes. */
  test: string;
  write: () => void | Promise<void>;
}

/** Replaces `file`'s text from `block`'s first line to its last (its markers) with `block`. */
function replaceBlock(file: string, block: string): void {
  const path = join(ROOT, file);
  const text = readFileSync(path, 'utf8');
  const start = block.slice(0, block.indexOf('\n'));
  const end = block.slice(block.lastIndexOf('\n') + 1);
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`${file}: needs the markers ${start} and ${end}`);
  writeFileSync(path, text.slice(0, from) + block + text.slice(to + end.length));
}

/** The committed SDKs: Pulumi's code generators' Python and Go, written whole over sdk/<language>. */
async function writeSdks(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'svc-generate-'));
  try {
    await promisify(execFile)(
      join(ROOT, 'scripts', 'gen-sdk', 'run'),
      [SCHEMA_FILE, out, 'python', 'go'],
      { timeout: 30 * 60_000 },
    );
    for (const language of ['python', 'go']) {
      rmSync(join(ROOT, 'sdk', language), { recursive: true, force: true });
      cpSync(join(out, language), join(ROOT, 'sdk', language), { recursive: true });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export const PIECES: Piece[] = [
  {
    outputs: ['provider/plugin/schema.json'],
    test: 'test/scripts/plugin-schema.test.ts',
    write: writeSchema,
  },
  { outputs: ['sdk/python', 'sdk/go'], test: 'test/scripts/sdk.test.ts', write: writeSdks },
  { outputs: ['docs'], test: 'test/scripts/reference-docs.test.ts', write: writeReferenceDocs },
  {
    outputs: ['README.md'],
    test: 'test/scripts/reference-tables.test.ts',
    write: () => {
      replaceBlock('README.md', tables.referenceTables());
      replaceBlock('README.md', tables.settingsTable());
    },
  },
  {
    outputs: ['emulator/README.md'],
    test: 'test/emulator/services-table.test.ts',
    write: () => replaceBlock('emulator/README.md', services.servicesTable()),
  },
];

async function main(): Promise<void> {
  for (const piece of PIECES) {
    await piece.write();
    console.log(`generated ${piece.outputs.join(', ')} (checked by ${piece.test})`);
  }
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
