import type * as pulumi from '@pulumi/pulumi';
import {
  DETAIL_MASK,
  WaitTimeoutError,
  isReady,
  guestStatus,
  type VirtualGuest,
} from '../../managers';
import { Failures, changedFields, containsUnknown, initFailure, isKnown } from '../checks';
import { connect, type Connection } from '../connection';
import { createOnce, removeOnce } from '../exactly-once';
import { say } from '../log';
import { announceCreate, announceReplace, describeCost, type BilledCost } from './billing';
import { PRICED_FIELDS, catalogFrom, type Catalog } from './catalog';
import {
  EDIT_FIELDS,
  LOCAL_FIELDS,
  REPLACE_FIELDS,
  checkOffered,
  checkShape,
  creationToken,
  orderSpec,
  withDefaults,
  type GuestInputs,
} from './inputs';
import { computedOutputs, observedInputs } from './observe';

type Bag = Record<string, unknown>;

const catalog = (c: Connection): Promise<Catalog> => catalogFrom(() => c.guests.getCreateOptions());

/** Differences between an existing guest and what the adopting resource declares. */
function adoptionMismatches(guest: VirtualGuest, inputs: Bag, failures: Failures): void {
  const actual: Bag = {
    hostname: guest.hostname,
    domain: guest.domain,
    startCpus: guest.startCpus ?? guest.maxCpu,
    maxMemory: guest.maxMemory,
    hourlyBillingFlag: guest.hourlyBillingFlag,
    datacenter: guest.datacenter?.name,
  };
  for (const [field, value] of Object.entries(actual)) {
    const declared = inputs[field];
    if (value !== undefined && isKnown(declared) && declared !== value) {
      failures.add(
        field,
        `adoptId: guest ${guest.id} has ${field} ${JSON.stringify(value)} but the resource declares ${JSON.stringify(declared)}`,
      );
    }
  }
}

async function check(olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult> {
  const inputs = withDefaults(olds, news);
  const failures = new Failures();
  checkShape(inputs, failures);
  if (failures.list.length > 0) return { inputs, failures: failures.list };
  const c = connect();
  let offered: Catalog;
  try {
    offered = await catalog(c);
  } catch (err) {
    failures.add(
      'svc:endpointUrl',
      `cannot read the options this account is offered: ${(err as Error).message}`,
    );
    return { inputs, failures: failures.list };
  }
  checkOffered(inputs, offered, failures);
  if (isKnown(inputs.adoptId)) {
    const guest = await c.guests.findInstance(Number(inputs.adoptId));
    if (!guest)
      failures.add('adoptId', `adoptId: there is no guest ${inputs.adoptId} on this account`);
    else adoptionMismatches(guest, inputs, failures);
  }
  // The price needs only what is priced: a key id or user data known after apply still shows it.
  if (failures.list.length > 0 || containsUnknown(PRICED_FIELDS.map((f) => inputs[f]))) {
    return { inputs, failures: failures.list };
  }
  const known = inputs as unknown as GuestInputs;
  const price = offered.price(known);
  const orderKnown = !containsUnknown(REPLACE_FIELDS.map((f) => inputs[f]));
  const checked = {
    ...known,
    creationToken: known.adoptId || !orderKnown ? undefined : creationToken(known),
    estimatedHourlyCost: price.hourly,
    estimatedMonthlyCost: price.monthly,
  };
  if (Object.keys(olds).length === 0) announceCreate(known.resourceName, checked);
  return { inputs: checked, failures: [] };
}

async function diff(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult> {
  const replaces = changedFields(olds, news, REPLACE_FIELDS);
  const edits = changedFields(olds, news, [...EDIT_FIELDS, ...LOCAL_FIELDS]);
  if (replaces.length > 0) {
    announceReplace(
      String(news.resourceName ?? id),
      replaces,
      olds,
      news as unknown as GuestInputs,
    );
  }
  return { changes: replaces.length + edits.length > 0, replaces, deleteBeforeReplace: false };
}

async function findByToken(c: Connection, token: string): Promise<VirtualGuest | undefined> {
  const found = await c.guests.listInstances({ tags: [token], mask: 'id,hostname,domain' });
  if (found.length > 1) {
    say(
      `WARNING: ${found.length} guests carry creation token ${token} (ids ${found.map((g) => g.id).join(', ')}); using the oldest`,
    );
  }
  return found.sort((a, b) => a.id - b.id)[0];
}

/**
 * Orders the guest exactly once. A guest carrying this resource's token (from an earlier run that
 * crashed, or an order whose response was lost) is adopted instead of ordering again; an order is
 * only repeated when the token lookup proves the failed one did not happen (see exactly-once.ts).
 */
async function order(c: Connection, inputs: GuestInputs): Promise<VirtualGuest> {
  const name = inputs.resourceName;
  if (inputs.adoptId) {
    say(`VirtualGuest "${name}": adopting existing guest ${inputs.adoptId}`);
    return c.guests.getInstance(Number(inputs.adoptId));
  }
  const token = inputs.creationToken ?? creationToken(inputs);
  const earlier = await findByToken(c, token);
  if (earlier) {
    say(
      `VirtualGuest "${name}": guest ${earlier.id} from an earlier attempt carries this resource's token; adopting it, no new order`,
    );
    return earlier;
  }
  say(
    `VirtualGuest "${name}": ordering ${inputs.hostname}.${inputs.domain} (${describeCost(inputs as GuestInputs & Partial<BilledCost>)})`,
  );
  return createOnce({
    what: `VirtualGuest "${name}" order`,
    write: () => c.guests.createInstance(orderSpec(inputs, [...inputs.tags, token])),
    find: () => findByToken(c, token),
  });
}

async function outputs(c: Connection, id: number, inputs: GuestInputs): Promise<Bag> {
  const guest = await c.guests.getInstance(id, DETAIL_MASK);
  return { ...inputs, ...computedOutputs(guest, inputs, await catalog(c)) };
}

/** Waits for the guest if asked; a timeout keeps the id in state so the next run resumes waiting. */
async function settle(c: Connection, id: number, inputs: GuestInputs): Promise<Bag> {
  if (inputs.waitForReady) {
    const name = inputs.resourceName;
    try {
      await c.guests.waitForReady(id, {
        timeoutMs: inputs.readyTimeoutMinutes * 60_000,
        onProgress: (guest, elapsed) =>
          say(
            `VirtualGuest "${name}" (id ${id}): ${guestStatus(guest)} (${Math.round(elapsed / 1000)} s)`,
          ),
      });
    } catch (err) {
      if (!(err instanceof WaitTimeoutError)) throw err;
      const message = `${err.message}; the guest is kept in the stack and the next \`pulumi up\` waits for it again (no new order)`;
      throw initFailure(message, String(id), { ...inputs, guestId: id });
    }
  }
  return outputs(c, id, inputs);
}

async function create(news: Bag): Promise<pulumi.dynamic.CreateResult> {
  const c = connect();
  const inputs = news as unknown as GuestInputs;
  const guest = await order(c, inputs);
  return { id: String(guest.id), outs: await settle(c, guest.id, inputs) };
}

async function read(id: string, props: Bag = {}): Promise<pulumi.dynamic.ReadResult> {
  const c = connect();
  const guest = await c.guests.findInstance(Number(id), DETAIL_MASK);
  if (!guest) {
    say(
      `VirtualGuest ${props.resourceName ?? ''} (id ${id}) no longer exists; it leaves the stack`,
    );
    return {};
  }
  const inputs = observedInputs(guest, props as unknown as GuestInputs);
  return { id, props: { ...inputs, ...computedOutputs(guest, inputs, await catalog(c)) } };
}

async function update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult> {
  const c = connect();
  const guestId = Number(id);
  const inputs = {
    ...(news as unknown as GuestInputs),
    creationToken: olds.creationToken as string | undefined,
  };
  const changed = new Set(changedFields(olds, news, EDIT_FIELDS));
  const edit = Object.fromEntries(
    (['hostname', 'domain', 'notes'] as const)
      .filter((f) => changed.has(f))
      .map((f) => [f, inputs[f] ?? '']),
  );
  const tags = changed.has('tags')
    ? [...inputs.tags, ...(inputs.creationToken ? [inputs.creationToken] : [])]
    : undefined;
  if (Object.keys(edit).length > 0 || tags) {
    say(
      `VirtualGuest "${inputs.resourceName}" (id ${id}): updating ${[...changed].join(', ')} in place`,
    );
    await c.guests.editInstance(guestId, { ...edit, tags });
  }
  const guest = await c.guests.getInstance(guestId, DETAIL_MASK);
  return {
    outs: isReady(guest) ? await outputs(c, guestId, inputs) : await settle(c, guestId, inputs),
  };
}

async function remove(id: string, props: Bag): Promise<void> {
  const c = connect();
  const guestId = Number(id);
  const timeoutMs = Number(props.readyTimeoutMinutes ?? 30) * 60_000;
  await c.guests.waitForIdle(guestId, timeoutMs);
  await removeOnce({
    what: `VirtualGuest "${props.resourceName ?? id}"`,
    remove: () => c.guests.cancelInstance(guestId),
    exists: async () => (await c.guests.findInstance(guestId, 'id')) !== undefined,
  });
  say(
    `VirtualGuest "${props.resourceName ?? id}" (id ${id}): cancelled (${props.hourlyBillingFlag === false ? 'billing item cancelled' : 'deleted'})`,
  );
}

export const virtualGuestProvider = { check, diff, create, read, update, delete: remove };
