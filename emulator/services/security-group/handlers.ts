/**
 * Svc_Network_SecurityGroup: a group of the caller's account, its rules (added, edited and
 * removed in place, each change answered with a request id) and its bindings to guests' network
 * components, which take effect after the provisioning delay, as the API applies them
 * asynchronously. A group still bound (or being bound or unbound), or named as another group's
 * remote group, is not deleted: the fault says what to detach or edit first.
 */
import { invalidParams, invalidValue, propertyNotValid, publicFault } from '../../errors';
import { typeDef } from '../../schema';
import type { WriteOp } from '../../store';
import { isStruct, listOf, present } from '../../validators';
import {
  expectArgs,
  list,
  ok,
  one,
  owned,
  requireId,
  structArg,
  type AuthedContext,
  type CallResult,
} from '../context';
import { serviceFolder, type MethodDef } from '../service';
import {
  MAX_GROUPS_PER_COMPONENT,
  MAX_RULES,
  bindingsOfGroup,
  findComponent,
  isPresent,
  readRule,
  tables,
  type SecurityGroupRec,
  type SecurityGroupRuleRec,
} from './model';
import './types';

const TYPE = 'Svc_Network_SecurityGroup';
const MAX_NAME = 100;
const MAX_DESCRIPTION = 255;
const ECHOED = new Set(['complexType', 'id', 'createDate', 'modifyDate']);

const loadGroup = (ctx: AuthedContext): SecurityGroupRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('securityGroups', id), id);
};

function text(value: unknown, field: string, max: number): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value !== 'string')
    throw invalidValue(`Invalid value provided for '${field}': expected a string.`);
  if (value.length > max)
    throw invalidValue(`Invalid value provided for '${field}': at most ${max} characters.`);
  return value;
}

/** The name and description of a template (only those may be set). */
function readTemplate(template: Record<string, unknown>) {
  const type = typeDef(TYPE);
  for (const key of Object.keys(template)) {
    if (!ECHOED.has(key) && !type.locals.has(key) && !type.relations.has(key))
      throw propertyNotValid(key, TYPE);
    if (key === 'rules' && present(template[key]))
      throw publicFault('Rules are added with addRules once the group exists.');
  }
  return {
    name: text(template.name, 'name', MAX_NAME),
    description: text(template.description, 'description', MAX_DESCRIPTION),
  };
}

/** The method's one array argument, each entry read by `read`. */
function arrayArg<T>(ctx: AuthedContext, name: string, read: (v: unknown, i: number) => T): T[] {
  expectArgs(ctx, [name]);
  const values = listOf(ctx.args[0], name);
  if (values.length === 0)
    throw invalidParams(`${ctx.service}::${ctx.method}: '${name}' must not be empty.`);
  return values.map(read);
}

const requestId = (ctx: AuthedContext) => ctx.store.nextSubId();

async function addRules(ctx: AuthedContext): Promise<CallResult> {
  const group = loadGroup(ctx);
  const rules = arrayArg(ctx, 'ruleObjects', (v, i) => readRule(ctx, v, `ruleObjects[${i}]`));
  const count = ctx.store.countBy('securityGroupRules', 'securityGroupId', group.id);
  if (count + rules.length > MAX_RULES)
    throw publicFault(
      `A security group holds at most ${MAX_RULES} rules; group ${group.id} has ${count}.`,
    );
  const records: SecurityGroupRuleRec[] = rules.map((rule) => ({
    ...rule,
    id: ctx.store.nextId('securityGroupRules'),
    accountId: ctx.account.id,
    securityGroupId: group.id,
    createDate: ctx.now,
    modifyDate: ctx.now,
  }));
  const id = requestId(ctx);
  await ctx.store.write(records.map((record) => ({ put: 'securityGroupRules', record })));
  const shown = list(ctx, 'Svc_Network_SecurityGroup_Rule', records, null).value;
  return ok({ requestId: id, rules: shown });
}

/** An id as clients send it: an integer, or its digits as a string (slcli's arguments). */
const idOf = (value: unknown): number =>
  typeof value === 'string' && /^\d{1,15}$/.test(value.trim())
    ? Number(value)
    : typeof value === 'number' && Number.isInteger(value)
      ? value
      : Number.NaN;

/** The group's rule `id` (a rule of another group faults, naming it). */
function ruleOf(ctx: AuthedContext, group: SecurityGroupRec, id: unknown, field: string) {
  const rule = ctx.store.get('securityGroupRules', idOf(id));
  if (!rule || rule.securityGroupId !== group.id)
    throw publicFault(`${field}: rule ${String(id)} is not a rule of security group ${group.id}.`);
  return rule;
}

async function editRules(ctx: AuthedContext): Promise<CallResult> {
  const group = loadGroup(ctx);
  const records = arrayArg(ctx, 'ruleObjects', (v, i) => {
    const field = `ruleObjects[${i}]`;
    const current = ruleOf(ctx, group, isStruct(v) ? v.id : undefined, `${field}.id`);
    return { ...current, ...readRule(ctx, v, field, current), modifyDate: ctx.now };
  });
  await ctx.store.write(records.map((record) => ({ put: 'securityGroupRules', record })));
  return ok({ requestId: requestId(ctx) });
}

async function removeRules(ctx: AuthedContext): Promise<CallResult> {
  const group = loadGroup(ctx);
  const ids = arrayArg(ctx, 'ruleIds', (v, i) => ruleOf(ctx, group, v, `ruleIds[${i}]`).id);
  await ctx.store.write(ids.map((id): WriteOp => ({ del: 'securityGroupRules', id })));
  return ok({ requestId: requestId(ctx) });
}

/** The components named, each of the caller's account (another's faults as not found). */
const componentsArg = (ctx: AuthedContext) =>
  arrayArg(ctx, 'networkComponentIds', (v, i) => {
    const nic = findComponent(ctx, idOf(v));
    if (!nic)
      throw publicFault(
        `networkComponentIds[${i}]: network component ${String(v)} does not exist on this account.`,
      );
    return nic;
  });

async function attach(ctx: AuthedContext): Promise<CallResult> {
  const group = loadGroup(ctx);
  const nics = componentsArg(ctx);
  const ops: WriteOp[] = [];
  for (const nic of nics) {
    const id = nic.ip.componentId;
    const present = ctx.store
      .by('securityGroupBindings', 'guestId', nic.guest.id)
      .filter((b) => b.networkComponentId === id && isPresent(b, ctx.now));
    if (present.some((b) => b.securityGroupId === group.id && b.unboundAt === undefined))
      throw publicFault(`Network component ${id} is already bound to security group ${group.id}.`);
    if (present.length >= MAX_GROUPS_PER_COMPONENT)
      throw publicFault(
        `Network component ${id} already has ${MAX_GROUPS_PER_COMPONENT} security groups, the most an interface may have.`,
      );
    ops.push({
      put: 'securityGroupBindings',
      record: {
        id: ctx.store.nextId('securityGroupBindings'),
        accountId: ctx.account.id,
        securityGroupId: group.id,
        guestId: nic.guest.id,
        networkComponentId: id,
        boundAt: ctx.now + ctx.settings.provisioningDelayMs,
      },
    });
  }
  await ctx.store.write(ops);
  return ok({ requestId: requestId(ctx) });
}

async function detach(ctx: AuthedContext): Promise<CallResult> {
  const group = loadGroup(ctx);
  const nics = componentsArg(ctx);
  const live = bindingsOfGroup(ctx.store, group.id, ctx.now);
  const ops = nics.map((nic): WriteOp => {
    const id = nic.ip.componentId;
    const binding = live.find((b) => b.networkComponentId === id && b.unboundAt === undefined);
    if (!binding)
      throw publicFault(`Network component ${id} is not bound to security group ${group.id}.`);
    const unboundAt = Math.max(binding.boundAt, ctx.now) + ctx.settings.provisioningDelayMs;
    return { put: 'securityGroupBindings', record: { ...binding, unboundAt } };
  });
  await ctx.store.write(ops);
  return ok({ requestId: requestId(ctx) });
}

/** Refuses to delete a group in use, saying what uses it. */
function checkUnused(ctx: AuthedContext, group: SecurityGroupRec): void {
  const bound = bindingsOfGroup(ctx.store, group.id, ctx.now);
  if (bound.length > 0) {
    const components = bound.map((b) => b.networkComponentId).join(', ');
    throw publicFault(
      `Security group ${group.id} is bound to network component(s) ${components}; detach them (detachNetworkComponents) before deleting it.`,
    );
  }
  const referring = ctx.store
    .by('securityGroupRules', 'accountId', ctx.account.id)
    .filter((r) => r.remoteGroupId === group.id && r.securityGroupId !== group.id);
  if (referring.length > 0)
    throw publicFault(
      `Security group ${group.id} is the remote group of rule(s) ${referring.map((r) => r.id).join(', ')}; remove or edit them first.`,
    );
}

const method = (handler: MethodDef['handler']): MethodDef => ({ handler });

export const securityGroup = serviceFolder({
  tables,
  services: {
    Network_SecurityGroup: {
      load: loadGroup,
      methods: {
        createObject: method(async (ctx) => {
          expectArgs(ctx, ['templateObject']);
          const fields = readTemplate(structArg(ctx, 0, 'templateObject'));
          const record: SecurityGroupRec = {
            id: ctx.store.nextId('securityGroups'),
            accountId: ctx.account.id,
            ...fields,
            createDate: ctx.now,
            modifyDate: ctx.now,
          };
          await ctx.store.write([{ put: 'securityGroups', record }]);
          return one(ctx, TYPE, record);
        }),
        editObject: method(async (ctx) => {
          expectArgs(ctx, ['templateObject']);
          const current = loadGroup(ctx);
          const template = structArg(ctx, 0, 'templateObject');
          const fields = readTemplate(template);
          const record: SecurityGroupRec = { ...current, modifyDate: ctx.now };
          if ('name' in template) record.name = fields.name;
          if ('description' in template) record.description = fields.description;
          await ctx.store.write([{ put: 'securityGroups', record }]);
          return ok(true);
        }),
        deleteObject: method(async (ctx) => {
          expectArgs(ctx, []);
          const group = loadGroup(ctx);
          checkUnused(ctx, group);
          const rules = ctx.store.by('securityGroupRules', 'securityGroupId', group.id);
          const leftovers = ctx.store.by('securityGroupBindings', 'securityGroupId', group.id);
          await ctx.store.write([
            ...rules.map((r): WriteOp => ({ del: 'securityGroupRules', id: r.id })),
            ...leftovers.map((b): WriteOp => ({ del: 'securityGroupBindings', id: b.id })),
            { del: 'securityGroups', id: group.id },
          ]);
          return ok(true);
        }),
        getAllObjects: method((ctx) => {
          expectArgs(ctx, []);
          const groups = ctx.store.by('securityGroups', 'accountId', ctx.account.id);
          return list(ctx, TYPE, groups, null);
        }),
        addRules: method(addRules),
        editRules: method(editRules),
        removeRules: method(removeRules),
        attachNetworkComponents: method(attach),
        detachNetworkComponents: method(detach),
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    securityGroup: typeof securityGroup;
  }
}
