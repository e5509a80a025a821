/**
 * `startEmulator()`: loads or seeds the state, starts the HTTP server and returns a handle with
 * the endpoint URL, the demo credentials and test controls (faults, stats, objects, close).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  newAccountOps,
  randomKey,
  usernameTaken,
  type AccountCredentials,
} from './services/account/model';
import { adminHandler, type AdminApi, type NewAccountSpec } from './admin';
import { checkDiscounts, setDiscountsOp, type Discounts } from './services/account/discounts';
import { findUser } from './auth';
import { FaultInjector, type FaultOptions, type FaultState } from './faults';
import { accountObjects, type AccountObjects } from './inventory';
import { Journal } from './journal';
import { populateGuests } from './populate';
import { reclaimTransientOps } from './services/virtual-guest/model';
import { applySeed, seededAccounts, type SeedName, type SeededAccounts } from './seed';
import { createHttpServer } from './server';
import type { Settings } from './services/context';
import { StatsCounter, type EmulatorStats } from './stats';
import { Store, type TableName } from './store';
import { TABLES } from './services/registry';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. The admin API answers loopback clients only, whatever the host. */
  host?: string;
  /** Where state is kept (journal + snapshot). Without it, state lives in memory only. */
  dataDir?: string;
  /** Starting data when the data dir is empty (or there is none). Default `demo`. */
  seed?: SeedName;
  /** How long a new guest provisions. Default 3000 ms. */
  provisioningDelayMs?: number;
  /** How long a cancelled guest stays visible, reclaiming, before it is gone (default 0). */
  reclaimDelayMs?: number;
  /** A list answer of more items fails with `Internal Error` (Settings). Default: no limit. */
  largestPage?: number;
  faults?: FaultOptions;
  /**
   * The demo account's negotiated prices: percent off the list price by item category, `*` for
   * the rest (services/account/discounts.ts), set at start.
   */
  discounts?: Discounts;
  /** Request body limit (also after gzip decompression). Default 8 MiB. */
  maxBodyBytes?: number;
  /** Deadline for decoding one request. Default 30 s. */
  requestTimeoutMs?: number;
  /** The journal is compacted into a snapshot past this size. Default 16 MiB. */
  compactAfterBytes?: number;
  /** Receives log lines (warnings, internal errors; per-call lines with logRequests). Default: silent. */
  log?: (line: string) => void;
  logRequests?: boolean;
}

export interface EmulatorHandle {
  /** The endpoint URL to give a client, e.g. http://127.0.0.1:PORT/xmlrpc/v3.1 */
  url: string;
  port: number;
  host: string;
  /** Base URL of the admin API, e.g. http://127.0.0.1:PORT/_emulator */
  adminUrl: string;
  /** The demo user's credentials. */
  credentials: { username: string; apiKey: string };
  /** Every seeded account and user (including a second account and a password user with a security question). */
  accounts: SeededAccounts;
  /** Merges fault settings (a rate of 0 / null switches one off; `once` queues); null switches all off. */
  setFaults(faults: FaultOptions | null): FaultState;
  stats(): EmulatorStats;
  /** Everything the account of `username` owns; throws for an unknown username. */
  objects(username: string): AccountObjects;
  /** A fresh, empty, isolated account with one user (and negotiated prices, if `discounts`). */
  createAccount(spec?: NewAccountSpec): Promise<AccountCredentials>;
  /** Sets the negotiated prices of the account of `username` (`{}`: list prices again). */
  setDiscounts(username: string, discounts: Discounts): Promise<void>;
  /** Adds `virtualGuests` provisioned guests to the account of `username`. */
  populate(username: string, virtualGuests: number): Promise<number>;
  settings: Settings;
  close(): Promise<void>;
}

const DEFAULTS = {
  provisioningDelayMs: 3000,
  reclaimDelayMs: 0,
  maxBodyBytes: 8 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  compactAfterBytes: 16 * 1024 * 1024,
};

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 'demo';
  const { store, journal } = await openState(options, seed, log);
  const settings: Settings = {
    provisioningDelayMs: options.provisioningDelayMs ?? DEFAULTS.provisioningDelayMs,
    reclaimDelayMs: options.reclaimDelayMs ?? DEFAULTS.reclaimDelayMs,
    largestPage: options.largestPage,
  };
  const faults = new FaultInjector(options.faults);
  const counters = new StatsCounter();
  const accounts = seededAccounts();
  const host = options.host ?? '127.0.0.1';
  const stats = () => statsOf(counters, store, journal);
  const createAccount = accountCreator(store);
  const populate = populator(store);
  const setDiscounts = discountSetter(store);
  if (options.discounts) await setDiscounts(accounts.demo.username, options.discounts);

  let url = '';
  const admin: AdminApi = {
    info: () => ({ url, dataDir: options.dataDir ?? null, seed, username: accounts.demo.username }),
    stats,
    faults,
    settings,
    accounts: () => accountList(store),
    createAccount,
    discounts: (username) => accountOf(store, username).discounts ?? {},
    setDiscounts,
    objects: (username) => accountObjects(store, username),
    populate,
    reclaimGuest: (id) => reclaimGuest(store, id),
    compact: async () => {
      await journal?.compact();
    },
  };
  const server = createHttpServer({
    store,
    settings,
    faults,
    stats: counters,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    log,
    logRequests: options.logRequests ?? false,
    admin: adminHandler(admin),
  });
  const port = await listen(server, options.port ?? 0, host, journal);
  const base = `http://${urlHost(host)}:${port}`;
  url = `${base}/xmlrpc/v3.1`;
  return {
    url,
    port,
    host,
    adminUrl: `${base}/_emulator`,
    credentials: { username: accounts.demo.username, apiKey: accounts.demo.apiKey },
    accounts,
    setFaults: (f) => faults.configure(f),
    stats,
    objects: (username) => objectsOf(store, username),
    createAccount,
    setDiscounts,
    populate,
    settings,
    close: closer(server, journal),
  };
}

/** The store, restored from the data dir's journal when there is one, seeded when empty. */
async function openState(
  options: EmulatorOptions,
  seed: SeedName,
  log: (line: string) => void,
): Promise<{ store: Store; journal: Journal | null }> {
  const store = new Store(TABLES);
  let journal: Journal | null = null;
  if (options.dataDir) {
    const opened = await Journal.open(options.dataDir, {
      compactAfterBytes: options.compactAfterBytes ?? DEFAULTS.compactAfterBytes,
      warn: log,
    });
    journal = opened.journal;
    try {
      store.attach(journal, opened.data.snapshot, opened.data.entries);
    } catch (err) {
      await journal.close();
      throw err;
    }
  }
  if (store.isEmpty()) await applySeed(store, seed);
  return { store, journal };
}

function statsOf(counters: StatsCounter, store: Store, journal: Journal | null): EmulatorStats {
  return {
    startedAt: new Date(counters.startedAt).toISOString(),
    uptimeMs: Date.now() - counters.startedAt,
    requests: counters.requests,
    calls: Object.fromEntries(counters.calls),
    faults: Object.fromEntries(counters.faults),
    faultsInjected: Object.fromEntries(counters.injected),
    writes: store.writes,
    journal: journal?.stats(),
    // Every table of every registered service.
    objects: Object.fromEntries(
      (Object.keys(TABLES) as TableName[]).map((t) => [t, store.count(t)]),
    ),
  };
}

const accountCreator =
  (store: Store) =>
  async (spec: NewAccountSpec = {}): Promise<AccountCredentials> => {
    const discounts = spec.discounts === undefined ? undefined : checkDiscounts(spec.discounts);
    const next = store.count('accounts') + 1;
    const username = spec.username ?? `user${Date.now().toString(36)}${next}`;
    if (typeof username !== 'string' || !/^[A-Za-z0-9._@-]{1,64}$/.test(username)) {
      throw new Error('username must be 1-64 letters, digits, dots, dashes, underscores or @');
    }
    if (usernameTaken(store, username)) throw new Error(`username '${username}' is taken`);
    const created = newAccountOps(
      store,
      {
        companyName: spec.companyName ?? `Test Account ${next}`,
        user: { username, apiKey: randomKey(), password: spec.password },
      },
      Date.now(),
    );
    await store.write(created.ops);
    if (discounts)
      await store.write([setDiscountsOp(store, created.credentials.accountId, discounts)]);
    return created.credentials;
  };

function accountOf(store: Store, username: string) {
  const user = findUser(store, username);
  const account = user && store.get('accounts', user.accountId);
  if (!account) throw new Error(`no user named '${username}'`);
  return account;
}

const discountSetter = (store: Store) => async (username: string, discounts: Discounts) => {
  const account = accountOf(store, username);
  await store.write([setDiscountsOp(store, account.id, checkDiscounts(discounts))]);
};

const populator = (store: Store) => async (username: string, count: number) => {
  const user = findUser(store, username);
  if (!user) throw new Error(`no user named '${username}'`);
  return populateGuests(store, user.accountId, count);
};

function objectsOf(store: Store, username: string): AccountObjects {
  const objects = accountObjects(store, username);
  if (!objects) throw new Error(`no user named '${username}'`);
  return objects;
}

/** The API reclaims the transient guest `id` (404 when there is none). */
async function reclaimGuest(store: Store, id: number): Promise<void> {
  const guest = store.get('guests', id);
  if (!guest) throw new Error(`no virtual guest ${id}`);
  await store.write(reclaimTransientOps(store, guest, Date.now()));
}

const accountList = (store: Store) =>
  store.all('accounts').map((a) => ({
    accountId: a.id,
    companyName: a.companyName,
    usernames: store.by('users', 'accountId', a.id).map((u) => u.username),
  }));

/** Listens and resolves with the port; closes the journal when the port cannot be had. */
async function listen(
  server: Server,
  port: number,
  host: string,
  journal: Journal | null,
): Promise<number> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await journal?.close();
    throw err;
  }
  return (server.address() as AddressInfo).port;
}

/** The host as a client reaches it: a wildcard address by its loopback, IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Closes once (later calls get the same promise): idle connections now, busy ones after 2 s. */
function closer(server: Server, journal: Journal | null): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 2000);
      await closed;
      clearTimeout(force);
      await journal?.close();
    })();
    return closing;
  };
}
