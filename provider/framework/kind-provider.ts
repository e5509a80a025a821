import { connect, type Connection } from './connection';
import { Failures } from './failures';
import {
  changedBetween,
  checkFields,
  fieldsChanging,
  readComputed,
  readInputs,
  readMask,
  withFieldDefaults,
  withoutDefaults,
  type Bag,
  type Fields,
} from './fields';
import { say } from './log';
import { accountIdOf, requireOwner } from './owner';
import type { RuntimeProvider } from './runtime-provider';

/**
 * A kind's provider from its field table plus the operations only the kind knows: how to fetch,
 * create, edit and delete its API object. `check`, `diff`, `read` and `update` are derived from
 * the table; a kind overrides one only where it does more (the guest's billing lines, a zone's
 * records).
 */
export interface KindOperations {
  /** How messages name the object: `SshKey "deploy" (id 12)`. */
  describe(props: Bag, id: string): string;
  /**
   * The API object with (at least) the properties of `mask`, the table's read-back paths; undefined
   * once it is gone. `props` are the stored properties, empty on an import.
   */
  fetch(c: Connection, id: string, mask: string, props: Bag): Promise<object | undefined>;
  /** Makes the object exactly once; its outputs are the inputs plus what the table reads from it. */
  create(c: Connection, inputs: Bag): Promise<Created>;
  /** Applies a change of the table's `update` fields (`changed`, never empty) in place. */
  edit?(c: Connection, id: string, news: Bag, changed: string[]): Promise<void>;
  /** Deletes the object exactly once; a message returned replaces the usual "deleted". */
  delete(c: Connection, id: string, props: Bag): Promise<unknown>;
  /** Checks that need the API; they run once the table's rules pass. */
  checkWithApi?(c: Connection, inputs: Bag, olds: Bag, failures: Failures): Promise<void>;
  /**
   * The object belongs to one account: its outputs record `accountId`, and refresh, update and
   * delete refuse the credentials of another account (owner.ts).
   */
  owned?: true;
}

export interface Created {
  id: string | number;
  /** The API object as made. */
  object: object;
  /** Outputs the table cannot read from the object. */
  outs?: Bag;
}

/** The stored properties that are (`inputs`) or are not program inputs. */
const only = (fields: Fields, props: Bag, inputs: boolean): Bag =>
  Object.fromEntries(Object.entries(props).filter(([name]) => !!fields[name]?.input === inputs));

/** The inputs with the table's defaults, and a failure per field that breaks its rule. */
export function checkTable(fields: Fields, olds: Bag, news: Bag) {
  const inputs = withFieldDefaults(fields, olds, news);
  const failures = new Failures();
  checkFields(fields, inputs, failures);
  return { inputs, failures };
}

export function kindProvider(
  fields: Fields,
  ops: KindOperations,
  overrides: Partial<RuntimeProvider> = {},
): RuntimeProvider {
  const replaced = fieldsChanging(fields, 'replace');
  const inPlace = [
    ...fieldsChanging(fields, 'update'),
    ...fieldsChanging(fields, 'upgrade'),
    ...fieldsChanging(fields, 'local'),
  ];
  const edited = fieldsChanging(fields, 'update');
  const mask = readMask(fields);

  /** The outputs: the inputs as the object shows them (against `declared`), and the computed ones. */
  async function outputsOf(c: Connection, object: object, declared: Bag | undefined) {
    const owner = ops.owned ? { accountId: await accountIdOf(c) } : {};
    return { ...readInputs(fields, object, declared), ...readComputed(fields, object), ...owner };
  }

  const provider: RuntimeProvider = {
    async check(olds, news) {
      const { inputs, failures } = checkTable(fields, olds, news);
      if (failures.list.length === 0 && ops.checkWithApi)
        await ops.checkWithApi(connect(), inputs, olds, failures);
      return { inputs, failures: failures.list };
    },

    /**
     * A replace says which fields force it. An in-place change leaves `changes` unknown: the engine
     * then compares old and new inputs itself, so `ignoreChanges` and `--diff` work per property
     * (the dynamic provider protocol carries no detailed diff; the plugin derives one).
     */
    async diff(_id, olds, news) {
      const replaces = changedBetween(fields, olds, news, replaced);
      if (replaces.length > 0) return { changes: true, replaces, deleteBeforeReplace: false };
      return changedBetween(fields, olds, news, inPlace).length > 0
        ? { replaces: [] }
        : { changes: false };
    },

    async create(inputs) {
      const c = connect();
      const made = await ops.create(c, inputs);
      const outs = { ...inputs, ...(await outputsOf(c, made.object, inputs)), ...made.outs };
      return { id: String(made.id), outs };
    },

    /** A refresh reads against the stored properties; an import (no properties) by the id alone. */
    async read(id, props = {}) {
      const c = connect();
      const what = ops.describe(props, id);
      if (ops.owned) await requireOwner(c, props, what, 'refresh');
      const object = await ops.fetch(c, id, mask, props);
      if (!object) {
        say(`${what} no longer exists; it leaves the stack`);
        return {};
      }
      const declared = Object.keys(props).length > 0 ? props : undefined;
      const refreshed = await outputsOf(c, object, declared);
      const inputs = only(fields, refreshed, true);
      // An import's program says what a user writes: no default spelled out.
      return { id, props: refreshed, inputs: declared ? inputs : withoutDefaults(fields, inputs) };
    },

    async update(id, olds, news) {
      const c = connect();
      const what = ops.describe(olds, id);
      if (ops.owned) await requireOwner(c, olds, what, 'update');
      const changed = changedBetween(fields, olds, news, edited);
      if (changed.length > 0 && ops.edit) {
        say(`${what}: updating ${changed.join(', ')} in place`);
        await ops.edit(c, id, news, changed);
      }
      // What the inputs do not say (outputs the table cannot read) is kept from before.
      const stored = { ...only(fields, olds, false), ...news };
      const object = await ops.fetch(c, id, mask, olds);
      return { outs: object ? await outputsOf(c, object, stored) : stored };
    },

    async delete(id, props) {
      const c = connect();
      if (ops.owned) await requireOwner(c, props, ops.describe(props, id), 'delete');
      const said = await ops.delete(c, id, props);
      // Only a message counts: a write's own answer (`true`) is not one.
      say(`${ops.describe(props, id)}: ${typeof said === 'string' ? said : 'deleted'}`);
    },
  };
  return { ...provider, ...overrides };
}
