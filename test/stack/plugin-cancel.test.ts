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
import {
  HardwareManager,
  VirtualGuestManager,
  isCancelled,
  isProvisioned,
  tagNames,
} from '../../provider/managers';
import { killTree } from '../../scripts/processes';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { writeCalls, type Emulator } from './cli';

const PLUGIN = path.join(PACKAGE_ROOT, 'dist', 'provider', 'plugin', 'main.js');
const urn = (name: string, kind = 'VirtualGuest') =>
  `urn:pulumi:test::cancel::svc:index:${kind}::${name}`;

const GUEST = {
  domain: 'cancel.example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
};

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

/**
 * In a `describe`: an emulator (or another session's, `shared`) and the plugin (started as the
 * engine starts it, less the engine's address), configured for it over the protocol, with what
 * the tests ask of them.
 */
function pluginSession(
  provisioningDelayMs: number,
  settings: Record<string, unknown> = {},
  shared?: () => Emulator,
) {
  const session = {} as {
    emulator: Emulator;
    plugin: ChildProcess;
    client: provrpc.ResourceProviderClient;
    guests: VirtualGuestManager;
  };
  before(async () => {
    session.emulator =
      shared?.() ?? (await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs }));
    session.plugin = spawn(process.execPath, [PLUGIN], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) =>
      session.plugin.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim())),
    );
    session.client = new provrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    const { username, apiKey } = session.emulator.credentials;
    const endpointUrl = session.emulator.url;
    session.guests = new VirtualGuestManager(new Client({ username, apiKey, endpointUrl }));
    const args = { endpointUrl, username, apiKey: asSecret(apiKey), ...settings };
    await ask(
      session.client.configure.bind(session.client),
      new provproto.ConfigureRequest().setArgs(
        Struct.fromJavaScript(args as unknown as Record<string, never>),
      ),
    );
  });
  after(async () => {
    session.client?.close();
    if (session.plugin?.pid) killTree(session.plugin.pid);
    if (!shared) await session.emulator?.close();
  });
  /** A create request of a `kind` (a guest) named `name`, with the inputs the plugin's Check made. */
  const createRequest = async (name: string, kind = 'VirtualGuest', news: object = GUEST) => {
    const request = new provproto.CheckRequest()
      .setUrn(urn(name, kind))
      .setOlds(new Struct())
      .setNews(Struct.fromJavaScript(news as Record<string, never>));
    const response = await ask<provproto.CheckRequest, provproto.CheckResponse>(
      session.client.check.bind(session.client),
      request,
    );
    assert.deepEqual(response.getFailuresList(), []);
    return new provproto.CreateRequest()
      .setUrn(urn(name, kind))
      .setProperties(response.getInputs());
  };
  return {
    session,
    createRequest,
    create: async (name: string, kind?: string, news?: object) =>
      ask(session.client.create.bind(session.client), await createRequest(name, kind, news)),
    orders: () => writeCalls(session.emulator, 'Virtual_Guest.createObject'),
  };
}

// The plugin's Cancel, spoken to directly over Pulumi's provider protocol (what the engine sends
// on a first Ctrl-C; test/stack/plugin.test.ts does it through the CLI): a create waiting for its
// guest is answered at once with the id kept, a create that has not ordered yet orders nothing, a
// delete waiting for its guest deletes nothing, and no create starts after it.
describe('the plugin cancelled over the provider protocol', () => {
  const { session, create, orders } = pluginSession(30_000);

  it('ends the waits with the ids kept, orders and deletes nothing more, and starts no create', async () => {
    const { emulator, client, guests } = session;
    // A delete waits while its guest provisions (deletes are refused during a transaction).
    const busy = await guests.createInstance({
      hostname: 'busy',
      domain: 'cancel.example.com',
      cpus: 1,
      memory: 1024,
      os: 'UBUNTU_LATEST',
      datacenter: 'dal10',
    });
    const deleting = ask(
      client.delete.bind(client),
      new provproto.DeleteRequest()
        .setUrn(urn('busy'))
        .setId(String(busy.id))
        .setProperties(Struct.fromJavaScript({ resourceName: 'busy' })),
    ).catch((err: grpc.ServiceError) => err);
    const waiting = create('waiting').catch((err: grpc.ServiceError) => err);
    while (orders() === 1) await sleep(50);
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
    const kept = await guests.getInstance(Number(id), 'id,tagReferences.tag.name');
    assert.ok(tagNames(kept).includes(OWNED_TAG), 'marked owned, as the state now holds it');

    const refused = await early;
    assert.ok(refused instanceof Error, 'the create that had not ordered fails');
    assert.equal(keptId(refused as grpc.ServiceError), undefined, 'with no guest');
    await assert.rejects(create('late'), /was not started: the Pulumi operation was cancelled/);
    const deleted = await deleting;
    assert.match(String(deleted), /cancelled before it was deleted/);
    await sleep(4_000); // what the held-up create would do next, it may not: order
    assert.equal(orders(), 2, 'one order of the plugin: the guest of the create that was waiting');
    assert.equal(writeCalls(emulator, 'Virtual_Guest.deleteObject'), 0, 'nothing deleted');
    assert.ok(await guests.findInstance(busy.id), 'the guest being deleted is still there');
  });
});

// A create whose engine goes away (a killed CLI) while it marks its guest owned: the engine never
// gets the id, so the mark is taken back and the guest is left as an unfinished create's, which
// the next `up` adopts. Marking it is slowed past the client's timeout, as a slow API would.
describe('a create the engine abandons while it marks its guest owned', () => {
  const { session, createRequest } = pluginSession(500, { timeout: 1 });

  it('leaves the guest unowned, with its creation token, for the next up to adopt', async () => {
    const { emulator, client, guests } = session;
    emulator.setFaults({
      once: { service: 'Virtual_Guest', method: 'setTags', fault: 'slow-commit', delayMs: 3000 },
    });
    const request = await createRequest('abandoned');
    const token = String(request.getProperties()?.toJavaScript().creationToken);
    const answered = new Promise<unknown>((resolve) => {
      const call = client.create(request, (err) => resolve(err));
      const abandonWhenMarking = async () => {
        while (!emulator.stats().faultsInjected['slow-commit']) await sleep(20);
        call.cancel(); // the engine is gone: nothing will record this create
      };
      void abandonWhenMarking();
    });
    assert.match(String(await answered), /Cancelled/);
    const [guest] = await guests.listInstances({
      tags: [token],
      mask: 'id,tagReferences.tag.name',
    });
    assert.ok(guest, 'the guest was ordered');
    const owned = async () =>
      tagNames(await guests.getInstance(guest.id, 'id,tagReferences.tag.name')).includes(OWNED_TAG);
    await sleep(3_500); // the owned tag lands, late
    for (let i = 0; i < 40 && (await owned()); i++) await sleep(250);
    assert.equal(await owned(), false, 'its owned tag is taken back');
    const tags = tagNames(await guests.getInstance(guest.id, 'id,tagReferences.tag.name'));
    assert.ok(tags.includes(token), 'its creation token stays: the next up adopts it');
  });
});

// A Ctrl-C while a bare metal server provisions (hours on the real API): the create answers at once
// with the server kept, and a create of the same resource by another run (its engine never
// recorded the answer: a second Ctrl-C, a killed CLI) takes that server over: one order in all.
describe('a bare metal server create cancelled while it provisions', () => {
  const first = pluginSession(0);
  const next = pluginSession(0, {}, () => first.session.emulator);
  const SERVER = {
    hostname: 'bm',
    domain: 'cancel.example.com',
    preset: 'S1270_32GB_1X1TBSATA_NORAID',
    operatingSystemReferenceCode: 'UBUNTU_22_64',
    datacenter: 'dal10',
  };

  it('is taken over by the next run, provisioned or not, with no second order', async () => {
    const { emulator, client } = first.session;
    emulator.settings.hardwareStageMs = 1_500; // four stages: provisioned 6 s after its order
    const orders = () => writeCalls(emulator, 'Product_Order.placeOrder');
    const waiting = first
      .create('bm', 'BareMetalServer', SERVER)
      .catch((err: grpc.ServiceError) => err);
    while (orders() === 0) await sleep(50);
    await sleep(500); // in its provisioning wait
    await ask(client.cancel.bind(client), new Empty());
    const answer = await waiting;
    assert.ok(answer instanceof Error, 'the waiting create fails');
    const id = keptId(answer as grpc.ServiceError);
    assert.ok(id, 'with the id of its server');
    assert.match(
      answer.message,
      new RegExp(`cancelled after \\d+ s while server ${id} was provisioning`),
    );

    // The next run (another plugin process, as another \`pulumi up\` starts), once the server is
    // provisioned (what was refused before as maybe a replace's current server), takes it over.
    const { username, apiKey } = emulator.credentials;
    const hardware = new HardwareManager(
      new Client({ username, apiKey, endpointUrl: emulator.url }),
    );
    for (let i = 0; i < 100 && !isProvisioned(await hardware.getServer(Number(id))); i++)
      await sleep(200);
    assert.ok(isProvisioned(await hardware.getServer(Number(id))), 'provisioned meanwhile');
    const again = (await next.create('bm', 'BareMetalServer', SERVER)) as provproto.CreateResponse;
    assert.equal(again.getId(), id, 'the server the cancelled create ordered, taken over');
    assert.equal(orders(), 1, 'one order in all');
    const live = (await hardware.listServers()).filter(
      (s) => s.hostname === 'bm' && !isCancelled(s),
    );
    assert.deepEqual(
      live.map((s) => [String(s.id), tagNames(s).includes(OWNED_TAG)]),
      [[id, true]],
      'one server, handed to the state of the run that took it over',
    );
  });
});
