/**
 * Svc_Virtual_PlacementGroup: `createObject` behind a backend router (`getAvailableRouters`)
 * with a rule (`Virtual_PlacementGroup_Rule.getAllObjects`: SPREAD), `editObject` (the name),
 * `deleteObject` (only when empty: a guest leaves a group only when it is gone), and the guests
 * in it. Guests join at order time (`placementGroupId` in the template, checked in model.ts).
 */
import { propertyNotValid, publicFault } from '../../errors';
import { typeDef } from '../../schema';
import { checkHostname, present, readInt } from '../../validators';
import { expectArgs, list, ok, one, ownedById, structArg, type AuthedContext } from '../context';
import { serviceFolder } from '../service';
import {
  BACKEND_ROUTERS,
  RULES,
  guestsIn,
  routerById,
  tables,
  type PlacementGroupRec,
} from './model';
import './types';

const TYPE = 'Svc_Virtual_PlacementGroup';
const SETTABLE = new Set(['name', 'backendRouterId', 'ruleId']);
const ECHOED = new Set(['complexType', 'id', 'accountId', 'createDate', 'modifyDate']);

const loadGroup = ownedById((ctx, id) => ctx.store.get('placementGroups', id));

function checkProperties(template: Record<string, unknown>, settable: ReadonlySet<string>) {
  const type = typeDef(TYPE);
  for (const [key, value] of Object.entries(template)) {
    if (settable.has(key) || ECHOED.has(key)) continue;
    if (!type.locals.has(key) && !type.relations.has(key)) throw propertyNotValid(key, TYPE);
    if (present(value)) throw publicFault(`Property '${key}' of ${TYPE} cannot be set.`);
  }
}

/** A group's name: the API holds it to a hostname's syntax. */
const nameOf = (value: unknown) => {
  if (!present(value))
    throw publicFault(`Property 'name' must be set to create an instance of ${TYPE}.`);
  return checkHostname(value, 'name');
};

function readCreate(template: Record<string, unknown>) {
  checkProperties(template, SETTABLE);
  for (const field of ['backendRouterId', 'ruleId'])
    if (!present(template[field]))
      throw publicFault(`Property '${field}' must be set to create an instance of ${TYPE}.`);
  const routerId = readInt(template.backendRouterId, 'backendRouterId');
  if (!routerById(routerId))
    throw publicFault(
      `backendRouterId: ${routerId} is not a backend router that takes placement groups; see getAvailableRouters.`,
    );
  const ruleId = readInt(template.ruleId, 'ruleId');
  if (!RULES.some((r) => r.id === ruleId))
    throw publicFault(
      `ruleId: ${ruleId} is not a placement rule; offered: ${RULES.map((r) => `${r.id} (${r.keyName})`).join(', ')}.`,
    );
  return { name: nameOf(template.name), backendRouterId: routerId, ruleId };
}

async function create(ctx: AuthedContext) {
  expectArgs(ctx, ['templateObject']);
  const fields = readCreate(structArg(ctx, 0, 'templateObject'));
  const record: PlacementGroupRec = {
    id: ctx.store.nextId('placementGroups'),
    accountId: ctx.account.id,
    ...fields,
    createDate: ctx.now,
    modifyDate: ctx.now,
  };
  await ctx.store.write([{ put: 'placementGroups', record }]);
  return one(ctx, TYPE, record);
}

async function remove(ctx: AuthedContext) {
  expectArgs(ctx, []);
  const group = loadGroup(ctx);
  const guests = guestsIn(ctx, group);
  if (guests.length > 0)
    throw publicFault(
      `Placement group ${group.id} still holds guest(s) ${guests.map((g) => g.id).join(', ')}; a placement group must be empty to be deleted, and a guest leaves it only when it is cancelled and reclaimed.`,
    );
  await ctx.store.write([{ del: 'placementGroups', id: group.id }]);
  return ok(true);
}

export const placementGroup = serviceFolder({
  tables,
  services: {
    Virtual_PlacementGroup: {
      load: loadGroup,
      methods: {
        createObject: { handler: create },
        editObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const current = loadGroup(ctx);
            const template = structArg(ctx, 0, 'templateObject');
            checkProperties(template, new Set(['name']));
            const record = { ...current, name: nameOf(template.name), modifyDate: ctx.now };
            await ctx.store.write([{ put: 'placementGroups', record }]);
            return ok(true);
          },
        },
        deleteObject: { handler: remove },
        getAvailableRouters: {
          handler: (ctx) => {
            expectArgs(ctx, ['datacenterId'], 0);
            const dc = present(ctx.args[0]) ? readInt(ctx.args[0], 'datacenterId') : undefined;
            const routers = BACKEND_ROUTERS.filter(
              (r) => dc === undefined || r.datacenter.id === dc,
            );
            return list(ctx, 'Svc_Hardware_Router_Backend', routers, null);
          },
        },
      },
    },
    Virtual_PlacementGroup_Rule: {
      methods: {
        getAllObjects: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            return list(ctx, 'Svc_Virtual_PlacementGroup_Rule', RULES, null);
          },
        },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    placementGroup: typeof placementGroup;
  }
}
