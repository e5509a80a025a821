import { HardwareManager, tagNames, type BareMetalServer } from '../../managers';
import { changedFields } from '../../framework/compare';
import { freeWriteWindowMs, outcomeWindowMs, type Connection } from '../../framework/connection';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import { isProviderTag } from '../../framework/creation-token';
import { changedBetween, fieldsChanging, readInputs, type FieldName } from '../../framework/fields';
import { say } from '../../framework/log';
import { sameOs } from '../virtual-guest/api-forms';
import { BARE_METAL_FIELDS, RELOAD_FIELDS, type BareMetalFields } from './fields';
import type { Inputs, State } from './order';

/**
 * What a change does to a server: the fields that replace it (a new order), an OS reload in
 * place (`onImageChange: reload`: same server, id, addresses and bill), and the edits in place
 * (hostname, domain and notes through `editObject`, tags through `setTags`, the provider's own
 * tags kept).
 */

/** The fields whose change orders a new server (unless a reload makes them). */
export const REPLACING = fieldsChanging(BARE_METAL_FIELDS, 'replace');

type Props = Partial<Inputs> | Partial<State>;

/** The speeds `set*NetworkInterfaceSpeed` sets in place (Mbps), up to the ports' own. */
export const SETTABLE_SPEEDS: readonly number[] = [10, 100, 1000, 10000];

/** The speed a server's ports were ordered at (a state from before it was recorded: its speed). */
export const portsOf = (olds: Props) =>
  (olds as Partial<State>).maxNetworkSpeed ?? olds.networkSpeed;

/**
 * Whether a server of `olds` runs at the new speed in place: it exists, and the speed is one the
 * API sets, up to its ports' (a higher one needs new ports: a new server).
 */
export function speedInPlace(olds: Props, news: Props): boolean {
  const ports = portsOf(olds);
  const speed = news.networkSpeed;
  return (
    ports !== undefined &&
    typeof speed === 'number' &&
    speed <= ports &&
    SETTABLE_SPEEDS.includes(speed)
  );
}

/** The changed fields that replace the server (none when a reload makes them all). */
export function replacedBy(olds: Props, news: Props): FieldName<BareMetalFields>[] {
  const changed: FieldName<BareMetalFields>[] = changedBetween(
    BARE_METAL_FIELDS,
    olds,
    news,
    REPLACING,
  );
  if (
    changedBetween(BARE_METAL_FIELDS, olds, news, ['networkSpeed']).length > 0 &&
    !speedInPlace(olds, news)
  )
    changed.push('networkSpeed');
  if (news.onImageChange !== 'reload') return changed;
  return changed.some((f) => !(RELOAD_FIELDS as readonly string[]).includes(f)) ? changed : [];
}

/** The changed fields an OS reload makes in place. */
export const reloadedBy = (olds: Props, news: Props): string[] =>
  news.onImageChange === 'reload' && replacedBy(olds, news).length === 0
    ? changedBetween(BARE_METAL_FIELDS, olds, news, RELOAD_FIELDS)
    : [];

const hardware = (c: Connection) => c.use(HardwareManager);
const EDITED = ['hostname', 'domain', 'notes', 'tags'] as const;

const observed = (server: BareMetalServer, inputs: Inputs) =>
  readInputs(BARE_METAL_FIELDS, server, inputs) as Inputs;

/** Hostname, domain, notes and tags as declared, the provider's tags (its token) kept. */
export async function converge(
  c: Connection,
  id: number,
  inputs: Inputs,
  what: string,
): Promise<void> {
  const server = await hardware(c).getServer(id);
  const changed = new Set(changedFields(observed(server, inputs), inputs, EDITED));
  const names = (['hostname', 'domain', 'notes'] as const).filter((f) => changed.has(f));
  if (names.length === 0 && !changed.has('tags')) return;
  say(`${what}: updating ${[...changed].join(', ')} in place`);
  const done = async () =>
    changedFields(observed(await hardware(c).getServer(id), inputs), inputs, [...changed])
      .length === 0;
  if (names.length > 0)
    await writeIdempotent({
      what: `${what} edit`,
      write: () => hardware(c).edit(id, Object.fromEntries(names.map((f) => [f, inputs[f] ?? '']))),
      done,
      windowMs: freeWriteWindowMs(),
    });
  if (changed.has('tags')) {
    const kept = tagNames(server).filter(isProviderTag);
    await writeIdempotent({
      what: `${what} tags`,
      write: () => hardware(c).setTags(id, [...inputs.tags, ...kept]),
      done,
      windowMs: freeWriteWindowMs(),
    });
  }
}

const sameKeys = (server: BareMetalServer, declared: number[]) =>
  JSON.stringify((server.sshKeys ?? []).map((k) => k.id).sort((a, b) => a - b)) ===
  JSON.stringify(declared);

/**
 * Reloads the server when the inputs ask for it (`reloadedBy`), at most once: the server is read
 * first (idle by then: an earlier run's reload has finished), and one already running what is
 * declared is not reloaded again; a reload whose answer is lost is looked for (a newer
 * `lastOperatingSystemReload`), never sent again. Answers whether it sent one (to wait for).
 */
export async function reloadInPlace(
  c: Connection,
  id: number,
  olds: State,
  inputs: Inputs,
  what: string,
): Promise<boolean> {
  const fields = reloadedBy(olds, inputs);
  if (fields.length === 0) return false;
  const manager = hardware(c);
  const server = await manager.getServer(id);
  const os = inputs.operatingSystemReferenceCode;
  const osNow = sameOs(os, server.operatingSystemReferenceCode);
  if (osNow && sameKeys(server, inputs.sshKeyIds)) {
    say(`${what}: already runs what is declared (an earlier run's reload); nothing sent`);
    return false;
  }
  const osPriceId = osNow ? undefined : (await manager.createOptions()).operatingSystems.get(os);
  const before = server.lastOperatingSystemReload?.id;
  say(`${what}: reloading in place (${fields.join(', ')}); its disks are erased`);
  await createOnce({
    what: `${what} OS reload`,
    write: async () => {
      await manager.reload(id, { osPriceId, sshKeyIds: inputs.sshKeyIds });
      return true;
    },
    find: async () => {
      const now = (await manager.getServer(id, 'id,lastOperatingSystemReload.id'))
        .lastOperatingSystemReload?.id;
      return now !== undefined && now !== before ? true : undefined;
    },
    windowMs: outcomeWindowMs(),
    nextRun: 'The next `pulumi up` reads the server again before it reloads it.',
  });
  return true;
}
