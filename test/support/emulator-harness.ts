/**
 * Shared setup for the emulator tests: an emulator on 127.0.0.1 (free port) per test file,
 * clients for the seeded users, and a few guest-template helpers.
 */
import { after, before } from 'node:test';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator';
import { EmulatorClient } from './emulator-client';

export interface Harness {
  emu: EmulatorHandle;
  /** The demo user (API key). */
  demo: EmulatorClient;
  /** The user of the second account. */
  other: EmulatorClient;
  /** No credentials. */
  anonymous: EmulatorClient;
}

/** Starts one emulator for the enclosing test file (closed after it). */
export function useEmulator(options: EmulatorOptions = {}): Harness {
  const harness = {} as Harness;
  before(async () => {
    harness.emu = await startEmulator({ provisioningDelayMs: 0, ...options });
    const { url, accounts } = harness.emu;
    harness.demo = new EmulatorClient(url, {
      username: accounts.demo.username,
      apiKey: accounts.demo.apiKey,
    });
    harness.other = new EmulatorClient(url, {
      username: accounts.other.username,
      apiKey: accounts.other.apiKey,
    });
    harness.anonymous = new EmulatorClient(url, null);
  });
  after(async () => {
    await harness.emu?.close();
  });
  return harness;
}

/** A fresh empty account on `emu`, and a client signed in to it. */
export async function freshAccount(
  emu: EmulatorHandle,
  username?: string,
): Promise<EmulatorClient> {
  const created = await emu.createAccount(username ? { username } : {});
  return new EmulatorClient(emu.url, { username: created.username, apiKey: created.apiKey });
}

/** A valid createObject template; `overrides` replace or (with undefined) remove fields. */
export function guestTemplate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const template: Record<string, unknown> = {
    hostname: 'web1',
    domain: 'example.com',
    startCpus: 1,
    maxMemory: 1024,
    hourlyBillingFlag: true,
    localDiskFlag: false,
    operatingSystemReferenceCode: 'UBUNTU_LATEST',
    datacenter: { name: 'dal10' },
    ...overrides,
  };
  for (const [key, value] of Object.entries(overrides))
    if (value === undefined) delete template[key];
  return template;
}

export interface Guest {
  id: number;
  hostname: string;
  [key: string]: unknown;
}

export const createGuest = (client: EmulatorClient, overrides: Record<string, unknown> = {}) =>
  client.call<Guest>('Virtual_Guest', 'createObject', { args: [guestTemplate(overrides)] });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
