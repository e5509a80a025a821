import { connect, type Connection } from './connection';
import { Failures } from './failures';
import {
  changedBetween,
  checkFields,
  withAbsentDefaults,
  withDefaultsTheStateHolds,
  fieldsWhere,
  readComputed,
  readInputs,
  withFieldDefaults,
  withoutDefaults,
  withoutNewDefaults,
  type Bag,
  type FieldName,
  type Fields,
  type InputsOf,
  type StateOf,
} from './fields';
import { say } from './log';
import type { OperationRequest } from './operation';
import { noteHeld } from './held-objects';
import { accountIdOf, requireOwner } from './owner';
import { initFailure, type FieldDiff, type RuntimeProvider } from './runtime-provider';

/** What every hook of a kind is called with: the API, and (for the lifecycle) the engine's call. */
export interface KindRequest {
  /** The API: a client and the managers over it (`connection.use(DnsManager)`). */
  connection: Connection;
  /** The engine's call: its cancel signal and deadline (operation.ts); unset outside a door. */
  request?: OperationRequest;
}

/** The checked inputs before the API is asked: every field's own rule has run, not yet passed. */
export type UncheckedInputs<F extends Fields> = { [K in keyof InputsOf<F>]?: unknown };

export interface CheckRulesRequest<F extends Fields> {
  /** The inputs with the table's defaults; a value may still break its field's rule. */
  inputs: UncheckedInputs<F>;
  /** The inputs before (empty on a create). */
  olds: Partial<StateOf<F>>;
  failures: Failures;
}

export interface CheckWithApiRequest<F extends Fields> extends KindRequest {
  /** The inputs, every rule passed (a value may be unknown in a preview: `isUnknown`). */
  inputs: InputsOf<F>;
  /** The inputs before (empty on a create). */
  olds: Partial<StateOf<F>>;
  failures: Failures;
}

export interface CreateRequest<F extends Fields> extends KindRequest {
  inputs: InputsOf<F>;
}

export interface FetchRequest<F extends Fields> extends KindRequest {
  id: string;
  /** The stored properties; empty on an import. */
  state: Partial<StateOf<F>>;
}

export interface EditRequest<F extends Fields> extends KindRequest {
  id: string;
  /** The new inputs (with what the create set for good, `keep`). */
  inputs: InputsOf<F>;
  /** The stored properties before. */
  olds: StateOf<F>;
  /** The changed `update` fields (empty only with `editAlways`). */
  changed: FieldName<F>[];
}

export interface DeleteRequest<F extends Fields> extends KindRequest {
  id: string;
  state: StateOf<F>;
}

export interface PlanRequest<F extends Fields> extends KindRequest {
  id: string;
  olds: StateOf<F>;
  news: InputsOf<F>;
  /** The fields the table sees changed, in table order (never empty). */
  changed: FieldName<F>[];
}

export interface OutputsRequest<F extends Fields, O> extends KindRequest {
  id: string;
  /** The API object as read or made. */
  object: O;
  /** The properties as they will be stored (the inputs as the object shows them included). */
  state: StateOf<F>;
  /** On a refresh: the properties the state held before it (the hook may say what changed). */
  before?: StateOf<F>;
}

export interface ImportFormRequest<F extends Fields> extends KindRequest {
  /** The inputs read from the object, the table's defaults left out. */
  inputs: Partial<InputsOf<F>>;
}

/**
 * A kind's provider from its field table plus the operations only the kind knows: how to fetch,
 * create, edit and delete its API object (of type `O`). `check`, `diff`, `read` and `update` are
 * derived from the table; what a kind adds to them (a zone's records, a guest's price) it declares
 * through the optional hooks below. Each operation gets one request, typed from the table: its
 * inputs (`InputsOf<F>`) and stored properties (`StateOf<F>`) by field name.
 */
export interface KindOperations<F extends Fields, O extends object = object> {
  /** How messages name the object: `SshKey "deploy" (id 12)`. */
  describe(state: Partial<StateOf<F>>, id: string): string;
  /**
   * The API object; undefined once it is gone, or `goneForStack(why)` when it is gone for the stack although it still
   * shows. It must show every field's read-back (`readMask(fields)` is the mask that does).
   */
  fetch(req: FetchRequest<F>): Promise<O | GoneForStack | undefined>;
  /** Makes the object exactly once; its outputs are the inputs plus what the table reads from it. */
  create(req: CreateRequest<F>): Promise<Created<F, NoInfer<O>>>;
  /**
   * Applies a change in place. By default it is called with the changed `update` fields (never
   * empty); with `editAlways`, on every update (it converges what it owns). It may answer the
   * object as it ends (which then serves the outputs instead of another fetch) and outputs only
   * it knows (the ids of what it made).
   */
  edit?(req: EditRequest<F>): Promise<Edited<F, NoInfer<O>> | void>;
  editAlways?: true;
  /** Deletes the object exactly once; a message returned replaces the usual "deleted". */
  delete(req: DeleteRequest<F>): Promise<unknown>;
  /**
   * Rules across fields, or against the old inputs, beyond each field's own rule (no API call);
   * may answer inputs it normalises (a zone's records, checked as records).
   */
  checkRules?(req: CheckRulesRequest<F>): void | Promise<Partial<InputsOf<F>> | void>;
  /**
   * Checks that need the API; they run once the rules pass, and answer what they derive (the
   * table's `fromCheck` fields: a price, a token) to add to the checked inputs.
   */
  checkWithApi?(req: CheckWithApiRequest<F>): Promise<Partial<StateOf<F>> | void>;
  /**
   * The kind's part of a diff, where the table's `change` is not the whole rule: which of the
   * changed fields replace the object and which change in place (answered; by default the
   * table's `replace` fields replace it), and what the change will do that the engine cannot
   * show (said: what it bills).
   */
  plan?(req: PlanRequest<F>): Promise<PlannedChange<F>>;
  /**
   * Outputs the table cannot read from the object (a price), for create, read and update; on a
   * refresh it is told what the state held before.
   */
  outputs?(req: OutputsRequest<F, NoInfer<O>>): Promise<Partial<StateOf<F>>>;
  /** An import's inputs as a program would declare them (default: the table's defaults left out). */
  importForm?(req: ImportFormRequest<F>): Promise<Partial<InputsOf<F>>>;
  /**
   * The object belongs to one account: its outputs record `accountId`, and refresh, update and
   * delete refuse the credentials of another account (owner.ts).
   */
  owned?: true;
}

export interface Edited<F extends Fields, O = object> {
  /** The object as the edit left it. */
  object?: O;
  /** Outputs the table cannot read from the object. */
  outs?: Partial<StateOf<F>>;
}

export interface Created<F extends Fields, O = object> {
  id: string | number;
  /** The API object as made. */
  object: O;
  /** Outputs the table cannot read from the object. */
  outs?: Partial<StateOf<F>>;
}

/** What a diff found: the changed fields that replace the object, and those changed in place. */
export interface PlannedChange<F extends Fields = Fields> {
  replaces: FieldName<F>[];
  inPlace: FieldName<F>[];
}

const GONE = Symbol('gone');
export interface GoneForStack {
  readonly [GONE]: string;
}
/** An object that still shows but is gone for the stack (a guest being reclaimed), and why. */
export const goneForStack = (why: string): GoneForStack => ({ [GONE]: why });
const goneWhy = (object: unknown): string | undefined =>
  object === undefined ? 'no longer exists' : (object as Partial<GoneForStack>)[GONE];

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
function fieldDiffs(fields: Fields, olds: Bag, news: Bag, replaces: string[]): FieldDiff[] {
  const shown = Object.keys(fields).filter((name) => fields[name].input && !fields[name].internal);
  return changedBetween(fields, olds, news, shown).map((name) => ({
    name,
    kind: olds[name] === undefined ? 'add' : news[name] === undefined ? 'delete' : 'update',
    replace: replaces.includes(name),
  }));
}

export function kindProvider<F extends Fields, O extends object>(
  fields: F,
  ops: KindOperations<F, O>,
): RuntimeProvider {
  const replacing: string[] = fieldsWhere(fields, 'change', 'replace');
  const changes = changing(fields);
  const editable: string[] = fieldsWhere(fields, 'change', 'update');
  // The door hands over untyped properties; from here on they are the table's (checked by `check`).
  const asState = (props: Bag) => props as StateOf<F>;
  const describe = (props: Bag, id: string) => ops.describe(asState(props), id);

  /** The outputs: the inputs as the object shows them (against `declared`), and the computed ones. */
  async function readOutputs(
    c: Connection,
    id: string,
    object: O,
    declared: Bag | undefined,
    before?: Bag,
  ): Promise<Bag> {
    const inputs = readInputs(fields, object, declared);
    const owner = ops.owned ? { accountId: await accountIdOf(c) } : {};
    const more = ops.outputs
      ? await ops.outputs({
          connection: c,
          id,
          object,
          state: asState(inputs),
          before: before && asState(before),
        })
      : {};
    return { ...inputs, ...readComputed(fields, object), ...more, ...owner };
  }

  const fetch = (c: Connection, id: string, props: Bag, request?: OperationRequest) =>
    ops.fetch({ connection: c, id, state: asState(props), request });

  return {
    async check(olds, news, request) {
      const { inputs, failures } = checkTable(fields, olds, news);
      const prior = asState(olds);
      Object.assign(inputs, await ops.checkRules?.({ inputs, olds: prior, failures }));
      const checked = (all: Bag) => ({
        inputs: withoutNewDefaults(fields, olds, news, all),
        failures: failures.list,
      });
      if (failures.list.length > 0 || !ops.checkWithApi) return checked(inputs);
      const derived = await ops.checkWithApi({
        connection: connect(),
        inputs: inputs as InputsOf<F>,
        olds: prior,
        failures,
        request,
      });
      return checked({ ...inputs, ...derived });
    },

    /**
     * A replace says which fields force it. An in-place change leaves `changes` unknown: the engine
     * then compares old and new inputs itself, so `ignoreChanges` works per property (the dynamic
     * provider protocol carries no detailed diff; the plugin sends `fields`).
     */
    async diff(id, olds, declared, request) {
      noteHeld(olds, id);
      const news = withDefaultsTheStateHolds(fields, olds, declared);
      const changed = changedBetween(fields, olds, news, changes) as FieldName<F>[];
      if (changed.length === 0) return { changes: false };
      const { replaces } = ops.plan
        ? await ops.plan({
            connection: connect(),
            id,
            olds: asState(olds),
            news: news as InputsOf<F>,
            changed,
            request,
          })
        : { replaces: changed.filter((name) => replacing.includes(name)) };
      const detail = fieldDiffs(fields, olds, news, replaces);
      if (replaces.length === 0) return { replaces: [], fields: detail };
      return { changes: true, replaces, deleteBeforeReplace: false, fields: detail };
    },

    async create(checked, request) {
      const c = connect();
      // A replacement's check may have left out defaults its old object was made without.
      const inputs = withAbsentDefaults(fields, {}, checked);
      const made = await ops.create({ connection: c, inputs: inputs as InputsOf<F>, request });
      const id = String(made.id);
      const known = { ...inputs, ...made.outs };
      try {
        return {
          id,
          outs: { ...inputs, ...(await readOutputs(c, id, made.object, inputs)), ...made.outs },
        };
      } catch (err) {
        // Made, and maybe marked as handed to the state: the engine must record it whatever failed.
        const what = describe(inputs, id);
        const message = `${what} was made, then reading its outputs failed: ${(err as Error).message}. It is kept in the stack; the next \`pulumi up\` or \`pulumi refresh\` reads them again`;
        throw initFailure(message, id, known);
      }
    },

    /** A refresh reads against the stored properties; an import (no properties) by the id alone. */
    async read(id, props = {}, request) {
      noteHeld(props, id);
      const c = connect();
      const what = describe(props, id);
      const accountId = ops.owned ? await requireOwner(c, props, what, 'refresh') : undefined;
      const object = await fetch(c, id, props, request);
      const why = goneWhy(object);
      if (!object || why) {
        const owner = accountId === undefined ? '' : ` in account ${accountId}, which owns it`;
        say(`${what} ${why}${owner}; it leaves the stack`);
        return {};
      }
      const found = object as O;
      const declared = Object.keys(props).length > 0 ? props : undefined;
      // An import knows only the id: what no object shows takes the table's defaults, as a
      // program declaring it would get.
      const base = declared ?? withFieldDefaults(fields, {}, readInputs(fields, found));
      const refreshed = await readOutputs(c, id, found, base, declared);
      const inputs = only(fields, refreshed, true);
      if (declared) return { id, props: refreshed, inputs };
      // An import's program says what a user writes: no default spelled out, nothing check derives.
      const declarable = Object.fromEntries(
        Object.entries(inputs).filter(([name]) => !fields[name]?.fromCheck),
      );
      const form = ops.importForm
        ? await ops.importForm({ connection: c, inputs: declarable as Partial<InputsOf<F>> })
        : withoutDefaults(fields, declarable);
      return { id, props: refreshed, inputs: form };
    },

    async update(id, olds, news, request) {
      noteHeld(olds, id);
      const c = connect();
      const what = describe(olds, id);
      if (ops.owned) await requireOwner(c, olds, what, 'update');
      // What the create set for good stays (the token the object was ordered with).
      const wanted = { ...news, ...kept(fields, olds) };
      const changed = changedBetween(fields, olds, wanted, editable);
      let edited: Edited<F, O> | void = {};
      if (ops.edit && (ops.editAlways || changed.length > 0)) {
        if (changed.length > 0) say(`${what}: updating ${changed.join(', ')} in place`);
        edited = await ops.edit({
          connection: c,
          id,
          // With the defaults the check left out for an object made before their fields existed.
          inputs: withAbsentDefaults(fields, olds, wanted) as InputsOf<F>,
          olds: asState(olds),
          changed,
          request,
        });
      }
      // What the inputs do not say (outputs the table cannot read) is kept from before.
      const stored = { ...only(fields, olds, false), ...wanted, ...edited?.outs };
      const object = edited?.object ?? (await fetch(c, id, olds, request));
      return {
        outs: object && !goneWhy(object) ? await readOutputs(c, id, object as O, stored) : stored,
      };
    },

    async delete(id, props, request) {
      noteHeld(props, id);
      const c = connect();
      if (ops.owned) await requireOwner(c, props, describe(props, id), 'delete');
      const said = await ops.delete({ connection: c, id, state: asState(props), request });
      // Only a message counts: a write's own answer (`true`) is not one.
      say(`${describe(props, id)}: ${typeof said === 'string' ? said : 'deleted'}`);
    },
  };
}
