/**
 * The admin API on the emulator's own port (loopback callers only, no Svc auth), for tests and
 * operators. JSON in and out:
 *   GET    /_emulator/health                          endpoint, data dir, seed
 *   GET    /_emulator/stats                           counters (requests, calls, faults, writes)
 *   GET    /_emulator/faults                          current fault settings and queued one-shots
 *   POST   /_emulator/faults                          merge settings / queue `once` faults
 *                                                      (rates: http500Rate, dropRate = reset before
 *                                                      the call runs, loseResponseRate,
 *                                                      slowCommitRate + slowCommitMs,
 *                                                      errorAfterCommitRate + errorAfterCommitStatus)
 *   DELETE /_emulator/faults                          switch every fault off
 *   GET    /_emulator/settings, POST (provisioningDelayMs, reclaimDelayMs, largestPage,
 *                                                      datacenterCapacity: {dal10: n | null},
 *                                                      hardwareStageMs, failHardwareAt: stage)
 *   GET    /_emulator/accounts                        accounts and their usernames
 *   POST   /_emulator/accounts                        new isolated account {companyName?, username?,
 *                                                      discounts?}
 *   GET    /_emulator/accounts/<username>/discounts   the account's negotiated prices
 *   POST   /_emulator/accounts/<username>/discounts   set them: {"guest_core": 20, "*": 10} is percent
 *                                                      off the list price by item category
 *                                                      (services/account/discounts.ts); {} = list
 *   GET    /_emulator/accounts/<username>/objects     everything that account owns
 *   POST   /_emulator/accounts/<username>/populate    {virtualGuests: n} provisioned guests
 *   POST   /_emulator/guests/<id>/reclaim             the API reclaims that transient guest: gone
 *                                                      at once, its hourly billing stopped
 *   POST   /_emulator/compact                         snapshot + truncate the journal now
 */
import type * as http from 'node:http';
import type { AccountCredentials } from './services/account/model';
import type { FaultInjector, FaultOptions } from './faults';
import type { AccountObjects } from './inventory';
import { findDatacenter } from './catalog';
import type { Settings } from './services/context';
import { STAGES } from './services/hardware/model';
import type { Discounts } from './services/account/discounts';
import type { EmulatorStats } from './stats';

export interface AdminApi {
  info(): Record<string, unknown>;
  stats(): EmulatorStats;
  faults: FaultInjector;
  settings: Settings;
  accounts(): { accountId: number; companyName: string; usernames: string[] }[];
  createAccount(spec: NewAccountSpec): Promise<AccountCredentials>;
  discounts(username: string): Discounts;
  setDiscounts(username: string, discounts: Discounts): Promise<void>;
  objects(username: string): AccountObjects | undefined;
  populate(username: string, virtualGuests: number): Promise<number>;
  /** The API reclaims a transient guest (services/virtual-guest/model.ts reclaimTransientOps). */
  reclaimGuest(guestId: number): Promise<void>;
  compact(): Promise<void>;
}

/** A new account: names, a password user, and its negotiated prices. */
export interface NewAccountSpec {
  companyName?: string;
  username?: string;
  password?: string;
  discounts?: Discounts;
}

const MAX_ADMIN_BODY = 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function adminHandler(api: AdminApi) {
  return async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
  ): Promise<void> => {
    try {
      const result = await dispatch(api, req.method ?? 'GET', path.replace(/\/+$/, ''), req);
      sendJson(res, 200, result);
    } catch (err) {
      if (err instanceof HttpError) return sendJson(res, err.status, { error: err.message });
      sendJson(res, 400, { error: (err as Error).message });
    }
  };
}

async function dispatch(
  api: AdminApi,
  method: string,
  path: string,
  req: http.IncomingMessage,
): Promise<unknown> {
  const parts = path.split('/').slice(2).map(decodeURIComponent); // after '', '_emulator'
  const named = (p: string, i: number) =>
    i === 1 && parts[0] === 'accounts' ? ':user' : i === 1 && parts[0] === 'guests' ? ':id' : p;
  const key = `${method} ${parts.map(named).join('/')}`;
  switch (key) {
    case 'GET ':
    case 'GET health':
      return api.info();
    case 'GET stats':
      return api.stats();
    case 'GET faults':
      return api.faults.current();
    case 'POST faults':
      return api.faults.configure((await readJson(req)) as FaultOptions);
    case 'DELETE faults':
      return api.faults.configure(null);
    case 'GET settings':
      return api.settings;
    case 'POST settings': {
      const body = (await readJson(req)) as {
        provisioningDelayMs?: unknown;
        reclaimDelayMs?: unknown;
        largestPage?: unknown;
        datacenterCapacity?: unknown;
        hardwareStageMs?: unknown;
        failHardwareAt?: unknown;
      };
      const count = (value: unknown) =>
        typeof value === 'number' && Number.isInteger(value) && value >= 0;
      if (body.reclaimDelayMs !== undefined) {
        if (!count(body.reclaimDelayMs))
          throw new HttpError(400, 'reclaimDelayMs must be a non-negative integer (milliseconds)');
        api.settings.reclaimDelayMs = body.reclaimDelayMs as number;
      }
      if (
        body.provisioningDelayMs !== undefined ||
        (body.largestPage === undefined &&
          body.reclaimDelayMs === undefined &&
          body.datacenterCapacity === undefined &&
          body.hardwareStageMs === undefined &&
          body.failHardwareAt === undefined)
      ) {
        if (!count(body.provisioningDelayMs))
          throw new HttpError(
            400,
            'provisioningDelayMs must be a non-negative integer (milliseconds)',
          );
        api.settings.provisioningDelayMs = body.provisioningDelayMs as number;
      }
      if (body.largestPage !== undefined) {
        if (body.largestPage !== null && !count(body.largestPage))
          throw new HttpError(400, 'largestPage must be a non-negative integer (items), or null');
        api.settings.largestPage = (body.largestPage as number | null) ?? undefined;
      }
      if (body.datacenterCapacity !== undefined) setCapacity(api.settings, body.datacenterCapacity);
      setHardware(api.settings, body);
      return api.settings;
    }
    case 'GET accounts':
      return api.accounts();
    case 'POST accounts':
      return api.createAccount((await readJson(req)) as NewAccountSpec);
    case 'GET accounts/:user/discounts':
      return api.discounts(parts[1]);
    case 'POST accounts/:user/discounts':
      await api.setDiscounts(parts[1], (await readJson(req)) as Discounts);
      return api.discounts(parts[1]);
    case 'GET accounts/:user/objects': {
      const objects = api.objects(parts[1]);
      if (!objects) throw new HttpError(404, `no user named '${parts[1]}'`);
      return objects;
    }
    case 'POST accounts/:user/populate': {
      const body = (await readJson(req)) as { virtualGuests?: unknown };
      const n = body.virtualGuests;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 100_000) {
        throw new HttpError(400, 'virtualGuests must be an integer from 1 to 100000');
      }
      return { created: await api.populate(parts[1], n) };
    }
    case 'POST guests/:id/reclaim': {
      const id = Number(parts[1]);
      if (!Number.isSafeInteger(id) || id < 1)
        throw new HttpError(400, `${parts[1]} is not a guest id`);
      await api.reclaimGuest(id);
      return { reclaimed: id };
    }
    case 'POST compact':
      await api.compact();
      return { compacted: true };
    default:
      throw new HttpError(404, `no admin route ${method} ${path}`);
  }
}

/** Merges `{dal10: 2, dal12: null}` into the capacities (null: unlimited again). */
function setCapacity(settings: Settings, given: unknown): void {
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new HttpError(400, 'datacenterCapacity must be an object of datacenter names to counts');
  const capacity = { ...settings.datacenterCapacity };
  for (const [name, value] of Object.entries(given)) {
    if (!findDatacenter(name))
      throw new HttpError(400, `datacenterCapacity: ${name} is not a datacenter of this emulator`);
    if (value === null) delete capacity[name];
    else if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
      capacity[name] = value;
    else
      throw new HttpError(
        400,
        `datacenterCapacity.${name} must be a non-negative integer (active guests), or null`,
      );
  }
  settings.datacenterCapacity = capacity;
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_ADMIN_BODY) throw new HttpError(413, 'admin request body is too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) return;
  const payload = Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': payload.length,
  });
  res.end(payload);
}

/** The bare-metal settings: each provisioning stage's length, and the stage new servers fail at. */
function setHardware(
  settings: Settings,
  body: { hardwareStageMs?: unknown; failHardwareAt?: unknown },
) {
  const stageMs = body.hardwareStageMs;
  if (stageMs !== undefined) {
    if (
      stageMs !== null &&
      !(typeof stageMs === 'number' && Number.isInteger(stageMs) && stageMs >= 0)
    )
      throw new HttpError(
        400,
        'hardwareStageMs must be a non-negative integer (milliseconds), or null',
      );
    settings.hardwareStageMs = (stageMs as number | null) ?? undefined;
  }
  const at = body.failHardwareAt;
  if (at !== undefined) {
    const names = STAGES.map((s) => s.name);
    if (at !== null && !names.includes(at as never))
      throw new HttpError(400, `failHardwareAt must be one of ${names.join(', ')}, or null`);
    settings.failHardwareAt = (at as string | null) ?? undefined;
  }
}
