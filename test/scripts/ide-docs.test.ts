import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

// What a user of the published package sees on hovering a property in VS Code: a TypeScript
// LanguageService over a program that imports `pulumi-svc` as users do (the self-link in
// node_modules, so the built `dist/**/*.d.ts`, not the sources; `npm run build` first), asked for
// the quick info of Args and output properties. Each must show the field's doc text, the one the
// README's reference table shows.

const ENTRY = join(PACKAGE_ROOT, 'dist', 'resources', 'index.d.ts');

/** One resource: its constructor call, the Args properties and output properties to hover. */
interface Case {
  kind: string;
  args: string;
  hoverArgs: string[];
  hoverOutputs: string[];
}

const CASES: Case[] = [
  {
    kind: 'VirtualGuest',
    args:
      "{ hostname: 'web', domain: 'example.com', startCpus: 1, maxMemory: 1024, " +
      "hourlyBillingFlag: true, operatingSystemReferenceCode: 'UBUNTU_LATEST', datacenter: 'dal10' }",
    hoverArgs: ['hostname', 'hourlyBillingFlag'],
    hoverOutputs: ['primaryIpAddress', 'hostname'],
  },
  {
    kind: 'DnsRecord',
    args: "{ zoneId: 1, host: 'www', type: 'A', data: '192.0.2.1' }",
    hoverArgs: ['zoneId', 'host'],
    hoverOutputs: ['recordId'],
  },
  {
    kind: 'DnsZone',
    args: "{ name: 'example.com', forceDelete: false }",
    hoverArgs: ['name', 'forceDelete'],
    hoverOutputs: ['zoneId'],
  },
  {
    kind: 'SshKey',
    args: "{ label: 'me', publicKey: 'ssh-ed25519 AAAA', adoptId: 1 }",
    hoverArgs: ['publicKey', 'adoptId'],
    hoverOutputs: ['fingerprint'],
  },
  {
    kind: 'TicketUpdate',
    args: "{ ticketId: 1, entry: 'hello' }",
    hoverArgs: ['entry'],
    hoverOutputs: ['updateId'],
  },
];

/** The "meaning" column of README's reference table for `kind`, by field name. */
function readmeDocs(kind: string): Map<string, string> {
  const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const section = readme.split(`#### ${kind}\n\n`)[1].split('\n\n')[0];
  const docs = new Map<string, string>();
  for (const line of section.split('\n').slice(2)) {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    docs.set(cells[1].replace(/`/g, ''), cells[cells.length - 2]);
  }
  return docs;
}

interface Probe {
  source: string;
  /** Where each hovered name is in `source`: [kind, property, 'arg' | 'output', offset]. */
  spots: [string, string, 'arg' | 'output', number][];
}

function probeProgram(): Probe {
  let source = `import { ${CASES.map((c) => c.kind).join(', ')} } from 'pulumi-svc';\n`;
  const spots: Probe['spots'] = [];
  for (const { kind, args, hoverArgs, hoverOutputs } of CASES) {
    const call = `const a${kind} = new ${kind}('x', ${args});\n`;
    for (const name of hoverArgs) {
      spots.push([kind, name, 'arg', source.length + call.indexOf(`${name}:`)]);
    }
    source += call;
    for (const name of hoverOutputs) {
      const line = `export const ${kind}_${name} = a${kind}.`;
      spots.push([kind, name, 'output', source.length + line.length]);
      source += `${line}${name};\n`;
    }
  }
  return { source, spots };
}

function languageService(fileName: string, source: string): ts.LanguageService {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
  };
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [fileName],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = name === fileName ? source : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => PACKAGE_ROOT,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === fileName || ts.sys.fileExists(name),
    readFile: (name) => (name === fileName ? source : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

it('hovering an Args or output property of a resource of the built package shows its field doc', () => {
  assert.ok(existsSync(ENTRY), `${ENTRY} is missing: run npm run build first`);
  const fileName = join(PACKAGE_ROOT, 'ide-docs-probe.ts');
  const { source, spots } = probeProgram();
  const service = languageService(fileName, source);

  const problems = service.getSemanticDiagnostics(fileName).map((d) => d.messageText);
  assert.deepEqual(problems, [], 'the probe program type-checks against the package');
  const resolved = service.getProgram()?.getSourceFile(ENTRY);
  assert.ok(resolved, "'pulumi-svc' resolves to dist/resources/index.d.ts");

  for (const [kind, name, role, offset] of spots) {
    const info = service.getQuickInfoAtPosition(fileName, offset);
    const shown = ts.displayPartsToString(info?.documentation).replace(/\s+/g, ' ');
    assert.equal(shown, readmeDocs(kind).get(name), `hover on ${kind} ${role} ${name}`);
  }
});
