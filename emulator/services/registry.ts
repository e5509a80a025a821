/**
 * Every service folder, and what the emulator derives from them: the tables the store keeps and
 * the method a call resolves to. `SERVICES` is typed by `ServiceFolders` (each folder adds its
 * own entry) and the tables by the store's `Tables` (each model adds its own): a folder or a
 * table missing here fails `tsc`.
 */
import { ApiFault, FaultCodes } from '../errors';
import { typeDef } from '../schema';
import type { TableName, TableSpec, TableSpecs } from '../store';
import { account } from './account/handlers';
import { billingItem } from './billing-item/handlers';
import { checkFilter, expectArgs, list, one, serviceType } from './context';
import { dedicatedHost } from './dedicated-host/handlers';
import { dns } from './dns/handlers';
import { hardware } from './hardware/handlers';
import { imageTemplate } from './image-template/handlers';
import { location } from './location/handlers';
import { network } from './network/handlers';
import { networkStorage } from './network-storage/handlers';
import { placementGroup } from './placement-group/handlers';
import { productOrder } from './product-order/handlers';
import { productPackage } from './product-package/handlers';
import { securityGroup } from './security-group/handlers';
import type { ApiService, MethodDef, OrderOwner, ServiceFolders } from './service';
import { sshKey } from './ssh-key/handlers';
import { tag } from './tag/handlers';
import { ticket } from './ticket/handlers';
import { virtualGuest } from './virtual-guest/handlers';

export const SERVICES: ServiceFolders = {
  account,
  billingItem,
  dedicatedHost,
  dns,
  hardware,
  imageTemplate,
  location,
  network,
  networkStorage,
  placementGroup,
  productOrder,
  productPackage,
  securityGroup,
  sshKey,
  tag,
  ticket,
  virtualGuest,
};

type Folder = ServiceFolders[keyof ServiceFolders];
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  i: infer I,
) => void
  ? I
  : never;
type RegisteredTables = UnionToIntersection<Folder['tables']>;
/** Tables a model declares whose folder is not registered (must be none). */
type Unregistered = Exclude<TableName, keyof RegisteredTables>;
const everyTableRegistered: [Unregistered] extends [never] ? true : Unregistered = true;
void everyTableRegistered;

/** Every table of every registered folder (the store is built from these). */
export const TABLES = Object.assign(
  {},
  ...Object.values(SERVICES).map((folder: Folder) => folder.tables),
) as Record<TableName, TableSpec> satisfies TableSpecs;

/** The order containers of every folder, by complexType (Product_Order dispatches on them). */
export const ORDER_OWNERS: ReadonlyMap<string, OrderOwner> = new Map(
  Object.values(SERVICES).flatMap((folder: Folder) =>
    Object.entries(('orders' in folder && folder.orders) || {}),
  ),
);

const API_SERVICES = new Map<string, ApiService>(
  Object.values(SERVICES).flatMap((folder: Folder) => Object.entries(folder.services)),
);

/**
 * Services of the API that the reference client's first commands call (`slcli account events`,
 * `vs storage`, `image list`, ...) and that this emulator does not model: they fault -32601 like
 * an unknown service, saying so, rather than answering something the emulator does not know.
 */
const NOT_MODELED = new Set([
  'Notification_Occurrence_Event',
  'Network_Storage_Iscsi',
  'Network_Storage_Allowed_Host',
  'Billing_Invoice',
  'Event_Log',
]);

/** Finds the method; faults -32601 for an unknown service or method. */
export function resolveMethod(service: string, method: string): MethodDef {
  const def = API_SERVICES.get(service);
  if (!def) {
    throw new ApiFault(
      FaultCodes.methodNotFound,
      NOT_MODELED.has(service)
        ? `Service does not exist in this emulator: Svc_${service} is part of the API but not modeled here.`
        : 'Service does not exist',
    );
  }
  if (Object.hasOwn(def.methods, method)) return def.methods[method];
  const generic = def.load && genericMethod(service, def.load, method);
  if (!generic) {
    throw new ApiFault(
      FaultCodes.methodNotFound,
      `Function ("${method}") is not a valid method for this service.`,
    );
  }
  return generic;
}

function genericMethod(
  service: string,
  load: NonNullable<ApiService['load']>,
  method: string,
): MethodDef | undefined {
  const type = typeDef(serviceType(service));
  if (method === 'getObject') {
    return {
      handler: (ctx) => {
        expectArgs(ctx, []);
        checkFilter(ctx);
        return one(ctx, type.name, load(ctx));
      },
    };
  }
  if (!method.startsWith('get') || method.length < 4) return undefined;
  const property = method[3].toLowerCase() + method.slice(4);
  const relation = type.relations.get(property);
  if (relation) {
    return {
      handler: (ctx) => {
        expectArgs(ctx, []);
        const object = load(ctx);
        if (!relation.many) return one(ctx, relation.type, relation.get(object, ctx));
        return list(ctx, relation.type, relation.get(object, ctx) as unknown[], [property]);
      },
    };
  }
  const plain = type.onDemand.get(property);
  if (!plain) return undefined;
  return {
    handler: (ctx) => {
      expectArgs(ctx, []);
      return { value: plain(load(ctx), ctx) ?? null };
    },
  };
}
