/**
 * The table of the services and methods the emulator implements, measured from its registry
 * (services/registry.ts). emulator/README.md holds it between the markers below (`npm run
 * generate` writes it there); test/emulator/services-table.test.ts keeps the two the
 * same.
 */
import { ORDER_OWNERS, SERVICES } from './services/registry';
import { typeDef } from './schema';
import type { ApiService } from './services/service';

export const START_MARKER = '<!-- services-table:start (emulator/services-table.ts) -->';
export const END_MARKER = '<!-- services-table:end -->';

/** What the registry gives a service for free when it can load its object. */
function generic(service: string, def: ApiService): string {
  if (!def.load) return '';
  const type = typeDef(`Svc_${service}`);
  const getters = type.relations.size + type.onDemand.size;
  return `\`getObject\` and a \`get<Property>\` per relational property (${getters})`;
}

/** Markdown rows padded as prettier pads them (each column as wide as its widest cell). */
function padded(rows: string[][]): string[] {
  const width = rows[0].map((_, i) => Math.max(3, ...rows.map((r) => [...r[i]].length)));
  const row = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(width[i] + c.length - [...c].length)).join(' | ')} |`;
  return [row(rows[0]), row(width.map((w) => '-'.repeat(w))), ...rows.slice(1).map(row)];
}

export function servicesTable(): string {
  const rows = Object.entries(SERVICES)
    .flatMap(([folder, value]) =>
      Object.entries(value.services as Record<string, ApiService>).map(([service, def]) => ({
        service,
        folder,
        methods: Object.keys(def.methods).sort(),
        generic: generic(service, def),
      })),
    )
    .sort((a, b) => a.service.localeCompare(b.service));
  const cells = [
    ['service', 'registry entry', 'its own methods', 'from the schema (`load`)'],
    ...rows.map((r) => [
      `\`Svc_${r.service}\``,
      `\`${r.folder}\``,
      r.methods.map((m) => `\`${m}\``).join(', '),
      r.generic,
    ]),
  ];
  const lines = [
    START_MARKER,
    '',
    ...padded(cells),
    '',
    `Order containers (\`Product_Order.verifyOrder\` / \`placeOrder\`): ${[...ORDER_OWNERS.keys()]
      .sort()
      .map((t) => `\`${t}\``)
      .join(', ')}.`,
    '',
    END_MARKER,
  ];
  return lines.join('\n');
}
