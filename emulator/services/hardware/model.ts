/**
 * Bare metal servers: seeded ones (always provisioned) and ones ordered through Product_Order
 * (./hardware-order.ts). An ordered server provisions through STAGES, each `stageMs` long, and
 * may fail at one of them (the emulator's `failHardwareAt` setting): it then stays, never
 * provisioned, showing the failed stage until it is cancelled. An OS reload is a transaction of
 * its own. All of it is a pure function of the record and the clock. A server is gone once its
 * billing item's cancellation date has passed (monthly: the anniversary) or at once when
 * cancelled immediately (the record is deleted).
 */
import { table, type RecordsOf, type Store } from '../../store';
import type { Timed } from '../transaction-view';

export interface HardwareReloadRec extends Timed {
  osCode: string;
  sshKeyIds: number[];
}

/** What an order fixed: how it bills, what it runs, and its provisioning. */
export interface HardwareOrderRec {
  orderId: number;
  billingItemId: number;
  orderedByUserId: number;
  hourly: boolean;
  presetId: number;
  osCode: string;
  portSpeed: number;
  /** Ordered with redundant uplinks (two bonded ports on each network). */
  redundant?: boolean;
  sshKeyIds: number[];
  userData?: string;
  containerIdentifier?: string;
  transactionId: number;
  createDate: number;
  stageMs: number;
  /** The index in STAGES at whose end provisioning fails. */
  failAtStage?: number;
}

export interface HardwareRec {
  id: number;
  accountId: number;
  globalIdentifier: string;
  hostname: string;
  domain: string;
  datacenterId: number;
  processorPhysicalCoreAmount: number;
  memoryCapacity: number;
  primaryIpAddress: string;
  primaryBackendIpAddress: string;
  /** Seeded: when it was provisioned; ordered: when it will be, unless it fails. */
  provisionDate: number;
  notes?: string;
  tagRefs?: { id: number; tagId: number }[];
  ordered?: HardwareOrderRec;
  reload?: HardwareReloadRec;
  /** The last speed change of each uplink (`set*NetworkInterfaceSpeed`). */
  uplinks?: Partial<Record<UplinkSide, UplinkChange>>;
}

export type UplinkSide = 'public' | 'private';

/** What an uplink runs at: its speed (Mbps) and whether both its ports are active. */
export interface UplinkState {
  speed: number;
  redundant: boolean;
}

/** A speed change: pending until `readyAt` (the switch port is reconfigured), then in force. */
export interface UplinkChange {
  from: UplinkState;
  to: UplinkState;
  readyAt: number;
}

export const tables = { hardware: table<HardwareRec>(200001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

/** The provisioning stages of an ordered server, in order (transaction status names). */
export const STAGES = [
  { name: 'HARDWARE_ALLOCATION', friendlyName: 'Allocating a server' },
  { name: 'HARDWARE_TESTING', friendlyName: 'Testing the hardware' },
  { name: 'OS_INSTALL', friendlyName: 'Installing the operating system' },
  { name: 'NETWORK_SETUP', friendlyName: 'Configuring the network' },
] as const;

export const FAILED_STATUS = {
  name: 'PROVISION_FAILED',
  friendlyName: 'Provisioning failed; the server will not become ready',
};

export type Provisioning =
  { state: 'done' } | { state: 'running'; stage: number } | { state: 'failed'; stage: number };

export function provisioning(h: HardwareRec, now: number): Provisioning {
  const o = h.ordered;
  if (!o) return { state: 'done' };
  const stage = Math.floor((now - o.createDate) / Math.max(1, o.stageMs));
  if (o.failAtStage !== undefined && stage > o.failAtStage)
    return { state: 'failed', stage: o.failAtStage };
  return stage >= STAGES.length ? { state: 'done' } : { state: 'running', stage };
}

export const isProvisioned = (h: HardwareRec, now: number) => provisioning(h, now).state === 'done';

export const reloadRunning = (h: HardwareRec, now: number) =>
  h.reload !== undefined && now < h.reload.readyAt;

/** Whether the server still exists at `now` (a cancel at the anniversary ends it then). */
export function isLive(store: Store, h: HardwareRec, now: number): boolean {
  if (!h.ordered) return true;
  const cancelled = store.get('billingItems', h.ordered.billingItemId)?.cancellationDate;
  return cancelled === undefined || cancelled > now;
}

export const liveHardware = (store: Store, accountId: number, now: number) =>
  store.by('hardware', 'accountId', accountId).filter((h) => isLive(store, h, now));

/** The operating system it runs now (the last finished reload's, else the order's). */
export function osCodeOf(h: HardwareRec, now: number): string | undefined {
  if (h.reload && now >= h.reload.readyAt) return h.reload.osCode;
  return h.ordered?.osCode;
}

/** What an ordered server's uplink runs at now (a pending change not yet in force). */
export function uplinkState(o: HardwareOrderRec, h: HardwareRec, side: UplinkSide, now: number) {
  const change = h.uplinks?.[side];
  if (!change) return { speed: o.portSpeed, redundant: o.redundant === true };
  return now >= change.readyAt ? change.to : change.from;
}

/** Whether a speed change of either uplink is still being applied. */
export const uplinkChangePending = (h: HardwareRec, now: number) =>
  Object.values(h.uplinks ?? {}).some((change) => now < change.readyAt);
