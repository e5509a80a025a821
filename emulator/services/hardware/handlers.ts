/**
 * Svc_Hardware_Server: a server read, its hostname, domain and notes edited (`editObject`), its
 * tags set, its operating system reloaded in place (`reloadOperatingSystem`, as for guests).
 * Servers are ordered through Product_Order (./hardware-order.ts) and cancelled through their
 * billing item (./cancel.ts).
 */
import { invalidParams, invalidValue, notReady, notSupported, publicFault } from '../../errors';
import { checkDomain, checkHostname, checkNotes, readInt, readString } from '../../validators';
import {
  expectArgs,
  ok,
  owned,
  requireId,
  stringArg,
  structArg,
  type AuthedContext,
} from '../context';
import { serviceFolder } from '../service';
import { retagged } from '../virtual-guest/model';
import { CONFIG_KEYS, keyIdsOf, osOfPrices } from '../virtual-guest/reload';
import { HARDWARE_ORDER, hardwareOrder } from './hardware-order';
import {
  isLive,
  osCodeOf,
  provisioning,
  reloadRunning,
  tables,
  uplinkChangePending,
  uplinkState,
  type HardwareRec,
  type UplinkSide,
} from './model';
import './types';

const loadServer = (ctx: AuthedContext): HardwareRec => {
  const id = requireId(ctx);
  const found = ctx.store.get('hardware', id);
  return owned(ctx, found && isLive(ctx.store, found, ctx.now) ? found : undefined, id);
};

const EDITABLE = ['hostname', 'domain', 'notes'] as const;

function edited(server: HardwareRec, template: Record<string, unknown>): HardwareRec {
  for (const key of Object.keys(template)) {
    if (
      !(EDITABLE as readonly string[]).includes(key) &&
      !(key === 'id' && template.id === server.id)
    )
      throw invalidValue(
        `Hardware_Server::editObject changes ${EDITABLE.join(', ')} only, not '${key}'.`,
      );
  }
  return {
    ...server,
    ...('hostname' in template ? { hostname: checkHostname(template.hostname) } : {}),
    ...('domain' in template ? { domain: checkDomain(template.domain) } : {}),
    ...('notes' in template ? { notes: checkNotes(template.notes) } : {}),
  };
}

/** Refused unless the server is provisioned and idle. */
function requireIdle(ctx: AuthedContext, server: HardwareRec, what: string): void {
  const state = provisioning(server, ctx.now).state;
  if (state !== 'done' || reloadRunning(server, ctx.now)) {
    const why = state === 'failed' ? 'its provisioning failed' : 'it has an active transaction';
    throw publicFault(
      `Hardware server ${server.id}: ${why}; ${what} once it is provisioned and idle.`,
    );
  }
}

/** The speeds `set*NetworkInterfaceSpeed` takes: -1 the port's maximum, 0 a disconnect. */
const SANE_SPEEDS = [-1, 0, 10, 100, 1000, 10000];
const REDUNDANCY = ['redundant', 'degraded'];

/**
 * `setPublicNetworkInterfaceSpeed(newSpeed, redundancy)` / `setPrivate...`, as the API reference
 * describes them: a speed up to the one the port was ordered at, redundant only on a server
 * ordered with redundant uplinks (left out: the best it has); answers whether a change was
 * needed, and the change is in force only a while later (one provisioning stage here), a second
 * change meanwhile refused as busy.
 */
function setInterfaceSpeed(side: UplinkSide) {
  return {
    handler: async (ctx: AuthedContext) => {
      expectArgs(ctx, ['newSpeed', 'redundancy'], 1);
      const server = loadServer(ctx);
      const speed = readInt(ctx.args[0], 'newSpeed');
      if (!SANE_SPEEDS.includes(speed))
        throw invalidValue(
          `newSpeed ${speed} is not a sane value: -1 (maximum available), 0 (disconnect), 10, 100, 1000 or 10000.`,
        );
      const given = ctx.args[1] ?? undefined;
      const redundancy = given === undefined ? undefined : readString(given, 'redundancy');
      if (redundancy !== undefined && !REDUNDANCY.includes(redundancy))
        throw invalidValue(`redundancy '${redundancy}' is neither 'redundant' nor 'degraded'.`);
      const o = server.ordered;
      if (!o)
        throw notSupported(`Hardware server ${server.id}: its ${side} network is not available.`);
      if (provisioning(server, ctx.now).state !== 'done')
        throw notReady(
          `Hardware server ${server.id} is not yet available for interface speed changes.`,
        );
      if (uplinkChangePending(server, ctx.now))
        throw notReady(`Hardware server ${server.id}: a change is pending against the server.`);
      const target = speed === -1 ? o.portSpeed : speed;
      if (target > o.portSpeed)
        throw notSupported(
          `The requested speed ${target} is not available to the server: its port was provisioned at ${o.portSpeed} Mbps.`,
        );
      if (redundancy === 'redundant' && !o.redundant)
        throw notSupported(
          `The requested redundancy mode 'redundant' is not available to the server: it was ordered without redundant uplinks.`,
        );
      const from = uplinkState(o, server, side, ctx.now);
      const to = {
        speed: target,
        redundant: redundancy ? redundancy === 'redundant' : !!o.redundant,
      };
      if (from.speed === to.speed && from.redundant === to.redundant) return ok(false);
      const stageMs = ctx.settings.hardwareStageMs ?? ctx.settings.provisioningDelayMs;
      const uplinks = { ...server.uplinks, [side]: { from, to, readyAt: ctx.now + stageMs } };
      await ctx.store.write([{ put: 'hardware', record: { ...server, uplinks } }]);
      return ok(true);
    },
  };
}

export const hardware = serviceFolder({
  tables,
  orders: { [HARDWARE_ORDER]: hardwareOrder },
  services: {
    Hardware_Server: {
      load: loadServer,
      methods: {
        editObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const server = loadServer(ctx);
            const next = edited(server, structArg(ctx, 0, 'templateObject'));
            await ctx.store.write([{ put: 'hardware', record: next }]);
            return ok(true);
          },
        },
        setTags: {
          handler: async (ctx) => {
            expectArgs(ctx, ['tags']);
            const server = loadServer(ctx);
            const tags = stringArg(ctx, 0, 'tags');
            const { refs, ops } = retagged(ctx.store, ctx.account.id, tags, server.tagRefs);
            await ctx.store.write([
              ...ops,
              { put: 'hardware', record: { ...server, tagRefs: refs } },
            ]);
            return ok(true);
          },
        },
        setPublicNetworkInterfaceSpeed: setInterfaceSpeed('public'),
        setPrivateNetworkInterfaceSpeed: setInterfaceSpeed('private'),
        reloadOperatingSystem: {
          handler: async (ctx) => {
            expectArgs(ctx, ['token', 'config'], 0);
            const server = loadServer(ctx);
            if (ctx.args[0] !== 'FORCE')
              throw publicFault(
                "reloadOperatingSystem: pass 'FORCE' as the token to reload without confirmation.",
              );
            const config = ctx.args[1] ?? {};
            if (typeof config !== 'object' || Array.isArray(config))
              throw invalidParams('reloadOperatingSystem: config must be a struct.');
            const c = config as Record<string, unknown>;
            const unknown = Object.keys(c).find((key) => !CONFIG_KEYS.has(key));
            if (unknown)
              throw publicFault(`reloadOperatingSystem: config.${unknown} is not supported.`);
            const os = osOfPrices(c.itemPrices);
            const sshKeyIds = keyIdsOf(ctx, c.sshKeyIds);
            requireIdle(ctx, server, 'its operating system can be reloaded');
            const stageMs = ctx.settings.hardwareStageMs ?? ctx.settings.provisioningDelayMs;
            const reload = {
              transactionId: ctx.store.nextSubId(),
              createDate: ctx.now,
              readyAt: ctx.now + stageMs,
              osCode: os?.referenceCode ?? osCodeOf(server, ctx.now) ?? 'UBUNTU_LATEST',
              sshKeyIds: sshKeyIds ?? server.reload?.sshKeyIds ?? server.ordered?.sshKeyIds ?? [],
            };
            await ctx.store.write([{ put: 'hardware', record: { ...server, reload } }]);
            return ok('OK');
          },
        },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    hardware: typeof hardware;
  }
}
