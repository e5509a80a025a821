/** Test wiring for client tests: a recording server and a client pointed at it, nothing else read. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { Client, type ClientOptions } from '../../provider/client';
import { startRecordingServer, type Handler, type RecordingServer } from './recording-server';

import { API_KEY, USERNAME } from './test-credentials';

export { API_KEY, USERNAME };

/** An empty settings file, so a developer's own ~/.svc never leaks into a test. */
export const EMPTY_SETTINGS = (() => {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-client-test-')), 'empty.ini');
  writeFileSync(file, '');
  return file;
})();

export interface Setup {
  server: RecordingServer;
  client: Client;
}

/** A server plus a client with credentials and no retries; both are closed after the test file. */
export async function setup(options: ClientOptions = {}, handler?: Handler): Promise<Setup> {
  const server = await startRecordingServer(handler);
  after(() => server.close());
  const client = new Client({
    username: USERNAME,
    apiKey: API_KEY,
    endpointUrl: server.url,
    configFile: EMPTY_SETTINGS,
    retry: false,
    ...options,
  });
  return { server, client };
}

/** Runs `fn` with the SVC_* environment variables replaced, then restores them. */
export async function withEnv<T>(
  vars: Record<string, string | undefined>,
  fn: () => T | Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(
    Object.keys(process.env)
      .filter((key) => key.startsWith('SVC_'))
      .map((key) => [key, process.env[key]]),
  );
  for (const key of Object.keys(saved)) delete process.env[key];
  for (const [key, value] of Object.entries(vars))
    if (value !== undefined) process.env[key] = value;
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(process.env)) if (key.startsWith('SVC_')) delete process.env[key];
    Object.assign(process.env, saved);
  }
}
