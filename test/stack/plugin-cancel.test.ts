import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import * as provrpc from '@pulumi/pulumi/proto/provider_grpc_pb';
import * as provproto from '@pulumi/pulumi/proto/provider_pb';
import * as statusproto from '@pulumi/pulumi/proto/status_pb';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import { asSecret } from '../../provider/plugin/secrets';
import { VirtualGuestManager, tagNames } from '../../provider/managers';
import { killTree } from '../../scripts/processes';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { writeCalls, type Emulator } from './cli';

const PLUGIN = path.join(PACKAGE_ROOT, 'dist', 'provider', 'plugin', 'main.js');
const urn = (name: string) => `urn:pulumi:test::cancel::svc:index:VirtualGuest::${name}`;

type Unary<Req, Res> = (req: Req, done: (err: grpc.ServiceError | null, res: Res) => void) => void;
const ask = <Req, Res>(method: Unary<Req, Res>, req: Req) =>
  new Promise<Res>((resolve, reject) =>
    method(req, (err, res) => (err ? reject(err) : resolve(res))),
  );

/** The id an error carries as "created but failed to initialize" (kept in the state). */
function keptId(err: grpc.ServiceError): string | undefined {
  const [bytes] = err.metadata?.get('grpc-status-details-bin') ?? [];
  if (!bytes) return undefined;
  const [detail] = statusproto.Status.deserializeBinary(bytes as Buffer).getDetailsList();
  return (
    detail && provproto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8()).getId()
  );
}

// The plugin's Cancel, spoken to directly over Pulumi's provider protocol (what the engine sends
// on a first Ctrl-C; test/stack/plugin.test.ts does it through the CLI): a create waiting for its
// guest is answered at once with the id kept, a create that has not ordered yet orders nothing,
// and no create starts after it.
describe('the plugin cancelled over the provider protocol', () => {
  let emulator: Emulator;
  let plugin: ChildProcess;
  let client: provrpc.ResourceProviderClient;

  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 30_000 });
    plugin = spawn(process.execPath, [PLUGIN], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) =>
      plugin.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim())),
    );
    client = new provrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    const { username, apiKey } = emulator.credentials;
    const args = { endpointUrl: emulator.url, username, apiKey: asSecret(apiKey) };
    await ask(
      client.configure.bind(client),
      new provproto.ConfigureRequest().setArgs(
        Struct.fromJavaScript(args as unknown as Record<string, never>),
      ),
    );
  });
  after(async () => {
    client?.close();
    if (plugin?.pid) killTree(plugin.pid);
    await emulator?.close();
  });

  const checked = async (name: string) => {
    const news = {
      domain: 'cancel.example.com',
      datacenter: 'dal10',
      startCpus: 1,
      maxMemory: 1024,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
    };
    const request = new provproto.CheckRequest()
      .setUrn(urn(name))
      .setOlds(new Struct())
      .setNews(Struct.fromJavaScript(news));
    const response = await ask<provproto.CheckRequest, provproto.CheckResponse>(
      client.check.bind(client),
      request,
    );
    assert.deepEqual(response.getFailuresList(), []);
    return response.getInputs()!;
  };
  const create = async (name: string) =>
    ask(
      client.create.bind(client),
      new provproto.CreateRequest().setUrn(urn(name)).setProperties(await checked(name)),
    );
  const orders = () => writeCalls(emulator, 'Virtual_Guest.createObject');

  it('ends the waits with the ids kept, orders nothing more, and starts no create', async () => {
    const waiting = create('waiting').catch((err: grpc.ServiceError) => err);
    while (orders() === 0) await sleep(50);
    // The next create is held up in its lookup for an earlier attempt, before its order.
    emulator.setFaults({
      once: { service: 'Account', method: 'getVirtualGuests', fault: 'latency', delayMs: 3000 },
    });
    const early = create('early').catch((err: grpc.ServiceError) => err);
    await sleep(500);
    const cancelled = Date.now();
    await ask(client.cancel.bind(client), new Empty());

    const answer = await waiting;
    assert.ok(answer instanceof Error, 'the waiting create fails');
    assert.ok(Date.now() - cancelled < 5_000, 'at once, not when the guest is ready (30 s)');
    const id = keptId(answer as grpc.ServiceError);
    assert.ok(id, 'with the id of its guest, kept in the state');
    assert.match(answer.message, new RegExp(`cancelled after \\d+ s while guest ${id}`));
    const { username, apiKey } = emulator.credentials;
    const guests = new VirtualGuestManager(
      new Client({ username, apiKey, endpointUrl: emulator.url }),
    );
    const kept = await guests.getInstance(Number(id), 'id,tagReferences.tag.name');
    assert.ok(tagNames(kept).includes(OWNED_TAG), 'marked owned, as the state now holds it');

    const refused = await early;
    assert.ok(refused instanceof Error, 'the create that had not ordered fails');
    assert.equal(keptId(refused as grpc.ServiceError), undefined, 'with no guest');
    await assert.rejects(create('late'), /was not started: the Pulumi operation was cancelled/);
    await sleep(4_000); // what the held-up create would do next, it may not: order
    assert.equal(orders(), 1, 'one order: the guest of the create that was waiting');
  });
});
