import { connect, type Connection } from './connection';
import { Failures } from './failures';
import {
  changedBetween,
  checkFields,
  withAbsentDefaults,
  fieldsWhere,
  readComputed,
  readInputs,
  readMask,
  withFieldDefaults,
  withoutDefaults,
  withoutNewDefaults,
  type Bag,
  type Fields,
} from './fields';
import { say } from './log';
import type { OperationRequest } from './operation';
import { accountIdOf, requireOwner } from './owner';
import { initFailure, type FieldDiff, type RuntimeProvider } from './runtime-provider';

/**
 * A kind's provider from its field table plus the operations only the kind knows: how to fetch,
 * create, edit and delete its API object. `check`, `diff`, `read` and `update` are derived from
 * the table; what a kind adds to them (a guest's billing lines, its price, a zone's records) it
 * declares through the optional members below, as hooks the derived methods call.
 */
export interface KindOperations {
  /** How messages name the object: `SshKey "deploy" (id 12)`. */
  describe(props: Bag, id: string): string;
  /**
   * The API object with (at least) the properties of `mask`, the table's read-back paths; undefined
   * once it is gone, or `gone(why)` when it is gone although it still shows. `props` are the stored
   * properties, empty on an import.
   */
  fetch(c: Connection, id: string, mask: string, props: Bag): Promise<object | Gone | undefined>;
  /** Makes the object exactly once; its outputs are the inputs plus what the table reads from it. */
  create(c: Connection, inputs: Bag, request?: OperationRequest): Promise<Created>;
  /**
   * Applies a change in place. By default it is called with the changed `update` fields (never
   * empty); with `editAlways`, on every update (it converges what it owns). It may answer the
   * object as it ends (which then serves the outputs instead of another fetch) and outputs only
   * it knows (the ids of what it made).
   */
  edit?(
    c: Connection,
    id: string,
    news: Bag,
    changed: string[],
    olds: Bag,
    request?: OperationRequest,
  ): Promise<Edited | void>;
  editAlways?: true;
  /** Deletes the object exactly once; a message returned replaces the usual "deleted". */
  delete(c: Connection, id: string, props: Bag, request?: OperationRequest): Promise<unknown>;
  /**
   * Rules across fields, or against the old inputs, beyond each field's own rule (no API call);
   * may answer inputs it normalises (a zone's records, checked as records).
   */
  checkRules?(inputs: Bag, olds: Bag, failures: Failures): void | Promise<Bag | void>;
  /**
   * Checks that need the API; they run once the rules pass, and answer the inputs they derive (a
   * price, a token) to add to the checked inputs.
   */
  checkWithApi?(c: Connection, inputs: Bag, olds: Bag, failures: Failures): Promise<Bag | void>;
  /** The fields whose change replaces the object, where the table's `change` is not the whole rule. */
  replaces?(olds: Bag, news: Bag): string[];
  /** Says, in a diff, what a change will do that the engine cannot show (what it bills). */
  announce?(id: string, olds: Bag, news: Bag, change: PlannedChange): Promise<void>;
  /** Outputs the table cannot read from the object (a price), for create, read and update. */
  outputs?(c: Connection, object: object, inputs: Bag): Promise<Bag>;
  /** Told what a refresh found (the stored properties, the refreshed ones, the object). */
  refreshed?(id: string, stored: Bag, refreshed: Bag, object: object): void;
  /** An import's inputs as a program would declare them (default: the table's defaults left out). */
  importForm?(c: Connection, inputs: Bag): Promise<Bag>;
  /**
   * The object belongs to one account: its outputs record `accountId`, and refresh, update and
   * delete refuse the credentials of another account (owner.ts).
   */
  owned?: true;
}

export interface Edited {
  /** The object as the edit left it. */
  object?: object;
  /** Outputs the table cannot read from the object. */
  outs?: Bag;
}

export interface Created {
  id: string | number;
  /** The API object as made. */
  object: object;
  /** Outputs the table cannot read from the object. */
  outs?: Bag;
}

/** What a diff found: the changed fields that replace the object, and those changed in place. */
export interface PlannedChange {
  replaces: string[];
  inPlace: string[];
}

const GONE = Symbol('gone');
export interface Gone {
  readonly [GONE]: string;
}
/** An object that still shows but is gone for the stack (a guest being reclaimed), and why. */
export const gone = (why: string): Gone => ({ [GONE]: why });
const goneWhy = (object: object | undefined): string | undefined =>
  object === undefined ? 'no longer exists' : (object as Partial<Gone>)[GONE];

/** The stored properties that are (`inputs`) or are not program inputs. */
function only(fields: Fields, props: Bag, inputs: boolean): Bag {
  const isInput = (name: string) => {
    const field = fields[name];
    if (field?.fromCheck) return true;
    return !!field?.input && !(field.outputWith !== undefined && props[field.outputWith] != null);
  };
  return Object.fromEntries(Object.entries(props).filter(([name]) => isInput(name) === inputs));
}

/** The values of `props` that the create set for good (`keep`). */
const kept = (fields: Fields, props: Bag): Bag =>
  Object.fromEntries(fieldsWhere(fields, 'keep', true).map((name) => [name, props[name]]));

/** The inputs with the table's defaults, and a failure per field that breaks its rule. */
export function checkTable(fields: Fields, olds: Bag, news: Bag) {
  const inputs = withFieldDefaults(fields, olds, news);
  const failures = new Failures();
  checkFields(fields, inputs, failures);
  return { inputs, failures };
}

/** The fields whose change does something, in table order. */
const changing = (fields: Fields) => Object.keys(fields).filter((name) => fields[name].change);

/**
 * The input fields a program sees changed, as the engine shows them (`pulumi preview --diff`):
 * added, updated or deleted, and whether that replaces the object.
 */
export function fieldDiffs(fields: Fields, olds: Bag, news: Bag, replaces: string[]): FieldDiff[] {
  const shown = Object.keys(fields).filter((name) => fields[name].input && !fields[name].internal);
  return changedBetween(fields, olds, news, shown).map((name) => ({
    name,
    kind: olds[name] === undefined ? 'add' : news[name] === undefined ? 'delete' : 'update',
    replace: replaces.includes(name),
  }));
}

export function kindProvider(fields: Fields, ops: KindOperations): RuntimeProvider {
  const replacing: string[] = fieldsWhere(fields, 'change', 'replace');
  const changes = changing(fields);
  const editable = fieldsWhere(fields, 'change', 'update');
  const mask = readMask(fields);

  /** The outputs: the inputs as the object shows them (against `declared`), and the computed ones. */
  async function outputsOf(c: Connection, object: object, declared: Bag | undefined) {
    const inputs = readInputs(fields, object, declared);
    const owner = ops.owned ? { accountId: await accountIdOf(c) } : {};
    const more = ops.outputs ? await ops.outputs(c, object, inputs) : {};
    return { ...inputs, ...readComputed(fields, object), ...more, ...owner };
  }

  return {
    async check(olds, news) {
      const { inputs, failures } = checkTable(fields, olds, news);
      Object.assign(inputs, await ops.checkRules?.(inputs, olds, failures));
      const checked = (all: Bag) => ({
        inputs: withoutNewDefaults(fields, olds, news, all),
        failures: failures.list,
      });
      if (failures.list.length > 0 || !ops.checkWithApi) return checked(inputs);
      const derived = await ops.checkWithApi(connect(), inputs, olds, failures);
      return checked({ ...inputs, ...derived });
    },

    /**
     * A replace says which fields force it. An in-place change leaves `changes` unknown: the engine
     * then compares old and new inputs itself, so `ignoreChanges` works per property (the dynamic
     * provider protocol carries no detailed diff; the plugin sends `fields`).
     */
    async diff(id, olds, news) {
      const changed = changedBetween(fields, olds, news, changes);
      const replaces = ops.replaces
        ? ops.replaces(olds, news)
        : changed.filter((name) => replacing.includes(name));
      const inPlace = changed.filter((name) => !replaces.includes(name));
      if (replaces.length + inPlace.length === 0) return { changes: false };
      await ops.announce?.(id, olds, news, { replaces, inPlace });
      const detail = fieldDiffs(fields, olds, news, replaces);
      if (replaces.length === 0) return { replaces: [], fields: detail };
      return { changes: true, replaces, deleteBeforeReplace: false, fields: detail };
    },

    async create(inputs, request) {
      const c = connect();
      const made = await ops.create(c, inputs, request);
      const id = String(made.id);
      const known = { ...inputs, ...made.outs };
      try {
        return {
          id,
          outs: { ...inputs, ...(await outputsOf(c, made.object, inputs)), ...made.outs },
        };
      } catch (err) {
        // Made, and maybe marked as handed to the state: the engine must record it whatever failed.
        const what = ops.describe(inputs, id);
        const message = `${what} was made, then reading its outputs failed: ${(err as Error).message}. It is kept in the stack; the next \`pulumi up\` or \`pulumi refresh\` reads them again`;
        throw initFailure(message, id, known);
      }
    },

    /** A refresh reads against the stored properties; an import (no properties) by the id alone. */
    async read(id, props = {}) {
      const c = connect();
      const what = ops.describe(props, id);
      const accountId = ops.owned ? await requireOwner(c, props, what, 'refresh') : undefined;
      const object = await ops.fetch(c, id, mask, props);
      const why = goneWhy(object);
      if (!object || why) {
        const owner = accountId === undefined ? '' : ` in account ${accountId}, which owns it`;
        say(`${what} ${why}${owner}; it leaves the stack`);
        return {};
      }
      const declared = Object.keys(props).length > 0 ? props : undefined;
      // An import knows only the id: what no object shows takes the table's defaults, as a
      // program declaring it would get.
      const base = declared ?? withFieldDefaults(fields, {}, readInputs(fields, object));
      const refreshed = await outputsOf(c, object, base);
      if (declared) ops.refreshed?.(id, declared, refreshed, object);
      const inputs = only(fields, refreshed, true);
      if (declared) return { id, props: refreshed, inputs };
      // An import's program says what a user writes: no default spelled out, nothing check derives.
      const declarable = Object.fromEntries(
        Object.entries(inputs).filter(([name]) => !fields[name]?.fromCheck),
      );
      const form = ops.importForm
        ? await ops.importForm(c, declarable)
        : withoutDefaults(fields, declarable);
      return { id, props: refreshed, inputs: form };
    },

    async update(id, olds, news, request) {
      const c = connect();
      const what = ops.describe(olds, id);
      if (ops.owned) await requireOwner(c, olds, what, 'update');
      // What the create set for good stays (the token the object was ordered with).
      const wanted = { ...news, ...kept(fields, olds) };
      const changed = changedBetween(fields, olds, wanted, editable);
      let edited: Edited | void = {};
      if (ops.edit && (ops.editAlways || changed.length > 0)) {
        if (changed.length > 0) say(`${what}: updating ${changed.join(', ')} in place`);
        // With the defaults the check left out for an object made before their fields existed.
        const full = withAbsentDefaults(fields, olds, wanted);
        edited = await ops.edit(c, id, full, changed, olds, request);
      }
      // What the inputs do not say (outputs the table cannot read) is kept from before.
      const stored = { ...only(fields, olds, false), ...wanted, ...edited?.outs };
      const object = edited?.object ?? (await ops.fetch(c, id, mask, olds));
      return { outs: object && !goneWhy(object) ? await outputsOf(c, object, stored) : stored };
    },

    async delete(id, props, request) {
      const c = connect();
      if (ops.owned) await requireOwner(c, props, ops.describe(props, id), 'delete');
      const said = await ops.delete(c, id, props, request);
      // Only a message counts: a write's own answer (`true`) is not one.
      say(`${ops.describe(props, id)}: ${typeof said === 'string' ? said : 'deleted'}`);
    },
  };
}
