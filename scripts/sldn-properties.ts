/**
 * Regenerates emulator/sldn-properties.json: the property names of the API's data types
 * (local, relational with their target type, count), read from the public API reference pages
 * (the `softlayer/githubio_source` repository, `content/reference/datatypes/<Type>/_index.md`,
 * in the last revision whose pages list the properties), for every type reachable from the
 * types the emulator serves. The brand prefix of type names becomes `Svc_`.
 *
 *   git clone https://github.com/softlayer/githubio_source /tmp/githubio_source
 *   npx tsx scripts/sldn-properties.ts /tmp/githubio_source > emulator/sldn-properties.json
 *   npx prettier --write emulator/sldn-properties.json
 */
import { execFileSync } from 'node:child_process';

const REVISION = '06d3b919a0517f1162277b85c7c394d759ebd544';
const PREFIX = 'SoftLayer_';
const DIR = 'content/reference/datatypes/';
/** The types the emulator serves; everything their relations reach is included too. */
const ROOTS = [
  'Account',
  'Virtual_Guest',
  'Hardware_Server',
  'Ticket',
  'Dns_Domain',
  'Security_Ssh_Key',
  'Location_Datacenter',
  'Billing_Item',
  'Product_Package',
  'Container_Product_Order_Virtual_Guest',
  'Network_Pod',
];

type Section = 'local' | 'relational' | 'count';
interface Property {
  type: string;
  many: boolean;
}
type Parsed = Record<Section, Map<string, Property>>;

const rename = (name: string) =>
  name.startsWith(PREFIX) ? `Svc_${name.slice(PREFIX.length)}` : name;

function parsePage(text: string): Parsed {
  const parsed: Parsed = { local: new Map(), relational: new Map(), count: new Map() };
  let section: Section | undefined;
  let property: string | undefined;
  for (const line of text.split('\n')) {
    const heading = /^## (Local|Relational|Count)\s*$/.exec(line);
    if (heading) {
      section = heading[1].toLowerCase() as Section;
      continue;
    }
    if (!section) continue;
    const name = /^#### \[(\w+)\]/.exec(line);
    if (name) {
      property = name[1];
      continue;
    }
    const type = /Type: <\/span>\*\*(.*)\*\*/.exec(line);
    if (type && property) {
      const linked = /datatypes\/(\w+)'>\s*\w+\s*(\[\])?/.exec(type[1]);
      const plain = /^\s*([\w.]+)\s*(\[\])?/.exec(type[1].replace(/<[^>]+>/g, ''));
      const found = linked ?? plain;
      if (found) parsed[section].set(property, { type: found[1], many: Boolean(found[2]) });
      property = undefined;
    }
  }
  return parsed;
}

function readPages(repo: string): Map<string, Parsed> {
  const git = (args: string[], input?: string) =>
    execFileSync('git', ['-C', repo, ...args], { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  const paths = git(['ls-tree', '-r', '--name-only', REVISION, DIR])
    .split('\n')
    .filter((p) => /\/_index\.md$/.test(p) && p.split('/').length === 5);
  // One `git cat-file --batch` for every page: `<sha> blob <size>\n<content>\n` per entry.
  const batch = Buffer.from(
    execFileSync('git', ['-C', repo, 'cat-file', '--batch'], {
      input: paths.map((p) => `${REVISION}:${p}`).join('\n') + '\n',
      maxBuffer: 1 << 30,
    }),
  );
  const pages = new Map<string, Parsed>();
  let offset = 0;
  for (const path of paths) {
    const headerEnd = batch.indexOf(10, offset);
    const size = Number(batch.subarray(offset, headerEnd).toString('utf8').split(' ')[2]);
    const text = batch.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8');
    offset = headerEnd + 1 + size + 1;
    pages.set(path.split('/')[3], parsePage(text));
  }
  return pages;
}

function main(): void {
  const repo = process.argv[2];
  if (!repo) {
    process.stderr.write('usage: tsx scripts/sldn-properties.ts <githubio_source checkout>\n');
    process.exit(2);
  }
  const pages = readPages(repo);
  const included = new Set<string>();
  const queue = ROOTS.map((r) => PREFIX + r);
  while (queue.length > 0) {
    const name = queue.shift()!;
    const page = pages.get(name);
    if (!page || included.has(name)) continue;
    included.add(name);
    for (const { type } of page.relational.values()) if (pages.has(type)) queue.push(type);
  }
  const types: Record<string, unknown> = {};
  for (const name of [...included].sort()) {
    const page = pages.get(name)!;
    const relational: Record<string, string> = {};
    for (const [prop, { type, many }] of [...page.relational].sort(([a], [b]) =>
      a.localeCompare(b),
    )) {
      relational[prop] = `${rename(type)}${many ? '[]' : ''}`;
    }
    types[rename(name)] = {
      local: [...page.local.keys()].sort(),
      relational,
      count: [...page.count.keys()].sort(),
    };
  }
  const source = `softlayer/githubio_source@${REVISION} ${DIR}<Type>/_index.md`;
  process.stdout.write(`${JSON.stringify({ source, types }, null, 2)}\n`);
}

main();
