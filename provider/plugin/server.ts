import * as grpc from '@grpc/grpc-js';
import * as provrpc from '@pulumi/pulumi/proto/provider_grpc_pb';
import * as provproto from '@pulumi/pulumi/proto/provider_pb';
import * as plugproto from '@pulumi/pulumi/proto/plugin_pb';
import * as statusproto from '@pulumi/pulumi/proto/status_pb';
import { Any } from 'google-protobuf/google/protobuf/any_pb';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import { packageVersion } from '../client/version';
import { configure, connect } from '../framework/connection';
import type { Bag, Field } from '../framework/fields';
import type { FieldDiff } from '../framework/runtime-provider';
import { aboutResource, say, scrub } from '../framework/log';
import { scrubError } from '../framework/redacting';
import {
  KINDS,
  PROVIDERS,
  kindOfToken,
  kindSpec,
  pluginToken,
  type ResourceKind,
} from '../kinds/index';
import { changedSettings, providerConfig, secretSettings } from './config';
import { asSecret, secretKeys, unwrapSecrets, withSecrets } from './secrets';
import { clearStatus } from './engine-log';
import { FUNCTIONS } from './functions';
import { internalInputs } from './identity';
import { cancelAll, cancelRequested, engineCall, runOperation } from './operations';
import schema from './schema.json';

/**
 * Pulumi's provider protocol served for every kind of the registry, with the same per-kind
 * providers the dynamic resources use (their checks, exactly-once and ownership rules). What the
 * protocol adds over a dynamic provider is done here: configuration (`svc:*` as provider config),
 * detailed diffs, secrets, import (read by id alone), the engine's timeouts and invokes.
 */

type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Done<Res> = grpc.sendUnaryData<Res>;

const raw = (struct: Struct | undefined): Bag => (struct?.toJavaScript() ?? {}) as Bag;
/** A request's properties as the kinds take them: plain values. */
const json = (struct: Struct | undefined): Bag => unwrapSecrets(raw(struct)) as Bag;
/** The properties that came in secret in any of these (they go back out secret). */
const secretsOf = (...structs: (Struct | undefined)[]) => secretKeys(...structs.map(raw));

/** The provider of a resource's URN (`urn:pulumi:stack::project::svc:index:Kind::name`). */
function kindOfUrn(urn: string): ResourceKind {
  const token = urn.split('::')[2]?.split('$').pop() ?? '';
  const kind = kindOfToken(token);
  if (!kind) throw new Error(`${token}: not a resource type of this provider`);
  return kind;
}

/**
 * Outputs as the engine keeps them: fields the table marks secret, and those that came in secret
 * (`secret`), wrapped as secrets.
 */
function markedOutputs(kind: ResourceKind, outs: Bag | undefined, secret: Set<string>): Bag {
  const fields = KINDS[kind].fields as Record<string, Field>;
  const marked = Object.fromEntries(
    Object.entries(outs ?? {}).map(([k, v]) => [k, fields[k]?.secret ? asSecret(v) : v]),
  );
  return withSecrets(marked, secret);
}

const outputStruct = (kind: ResourceKind, outs: Bag | undefined, secret: Set<string>): Struct =>
  Struct.fromJavaScript(markedOutputs(kind, outs, secret) as Record<string, never>);

/** A create or update that failed after its write: the properties it keeps are marked as outputs. */
const keepingSecrets =
  (kind: ResourceKind, secret: Set<string>) =>
  (err: unknown): never => {
    const failed = err as { properties?: Bag } | undefined;
    if (failed && typeof failed === 'object' && failed.properties)
      failed.properties = markedOutputs(kind, failed.properties, secret);
    throw err;
  };

/** An error the engine prints; one with an id is "created but failed to initialize": kept. */
function grpcError(err: unknown): grpc.ServiceError {
  const scrubbed = scrubError(err) as Error & { id?: string; properties?: Bag; reasons?: string[] };
  const metadata = new grpc.Metadata();
  if (scrubbed.id) {
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(scrubbed.id);
    detail.setProperties(
      Struct.fromJavaScript((scrubbed.properties ?? {}) as Record<string, never>),
    );
    detail.setReasonsList(scrubbed.reasons ?? [scrubbed.message]);
    const details = new Any();
    details.pack(detail.serializeBinary(), 'pulumirpc.ErrorResourceInitFailed');
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(scrubbed.message);
    status.addDetails(details);
    metadata.add('grpc-status-details-bin', Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(scrub(scrubbed.message ?? String(err))), {
    code: grpc.status.UNKNOWN,
    details: scrub(scrubbed.message ?? String(err)),
    metadata,
  }) as grpc.ServiceError;
}

/** Runs a handler, answering its result or its error; what it says is about the request's URN. */
function serve<Req, Res>(handler: (request: Req, call: Call<Req>) => Promise<Res>) {
  return (call: Call<Req>, done: Done<Res>) => {
    const urn = (call.request as { getUrn?: () => string }).getUrn?.();
    const handle = () => handler(call.request, call);
    (urn ? aboutResource(urn, handle).finally(() => clearStatus(urn)) : handle()).then(
      (response) => done(null, response),
      (err: unknown) => done(grpcError(err)),
    );
  };
}

/** The provider of a kind, as every front door serves it: redacted and encodable. */
const providerOf = (kind: ResourceKind) => PROVIDERS[kind];

const DIFF_KIND = {
  add: [provproto.PropertyDiff.Kind.ADD, provproto.PropertyDiff.Kind.ADD_REPLACE],
  update: [provproto.PropertyDiff.Kind.UPDATE, provproto.PropertyDiff.Kind.UPDATE_REPLACE],
  delete: [provproto.PropertyDiff.Kind.DELETE, provproto.PropertyDiff.Kind.DELETE_REPLACE],
} as const;

/** A changed input as the engine shows it in the detailed diff. */
function propertyDiff(field: FieldDiff): provproto.PropertyDiff {
  const diff = new provproto.PropertyDiff();
  diff.setKind(DIFF_KIND[field.kind][field.replace ? 1 : 0]);
  diff.setInputdiff(true);
  return diff;
}

export const service: provrpc.IResourceProviderServer = {
  getPluginInfo: serve(async () => new plugproto.PluginInfo().setVersion(packageVersion())),

  getSchema: serve(async () => new provproto.GetSchemaResponse().setSchema(JSON.stringify(schema))),

  // What CheckConfig answers is what the state keeps: the API key marked secret (config.ts).
  checkConfig: serve(async (req: provproto.CheckRequest) =>
    new provproto.CheckResponse().setInputs(secretSettings(req.getNews())),
  ),

  // A changed setting (other credentials, another endpoint) is a change of the provider, so that
  // the engine configures it anew (a refresh --run-program included); no resource is replaced.
  diffConfig: serve(async (req: provproto.DiffRequest) => {
    const olds = { ...json(req.getOlds()), ...json(req.getOldInputs()) };
    const changed = changedSettings(olds, json(req.getNews()));
    return new provproto.DiffResponse()
      .setChanges(
        changed.length > 0
          ? provproto.DiffResponse.DiffChanges.DIFF_SOME
          : provproto.DiffResponse.DiffChanges.DIFF_NONE,
      )
      .setDiffsList(changed);
  }),

  configure: serve(async (req: provproto.ConfigureRequest) => {
    await configure({ config: providerConfig(req.getArgs()?.toJavaScript() ?? {}) });
    return new provproto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setSupportspreview(true)
      .setAcceptresources(false);
  }),

  check: serve(async (req: provproto.CheckRequest) => {
    const urn = req.getUrn();
    const kind = kindOfUrn(urn);
    const olds = json(req.getOlds());
    const news = { ...json(req.getNews()), ...internalInputs(kind, urn) };
    const op = engineCall(`check of ${urn}`);
    const result = await op.run(() => providerOf(kind).check(olds, news, op));
    const response = new provproto.CheckResponse();
    const inputs = withSecrets(result.inputs ?? news, secretsOf(req.getNews()));
    response.setInputs(Struct.fromJavaScript(inputs as Record<string, never>));
    for (const failure of result.failures ?? []) {
      const item = new provproto.CheckFailure();
      item.setProperty(failure.property);
      item.setReason(scrub(failure.reason));
      response.addFailures(item);
    }
    return response;
  }),

  diff: serve(async (req: provproto.DiffRequest) => {
    const kind = kindOfUrn(req.getUrn());
    const olds = { ...json(req.getOlds()), ...json(req.getOldInputs()) };
    const news = json(req.getNews());
    const op = engineCall(`diff of ${req.getUrn()}`);
    const result = await op.run(() => providerOf(kind).diff(req.getId(), olds, news, op));
    const replaces = result.replaces ?? [];
    // A provider that says "no changes" has none to detail (a kind's diff details every change).
    const changed = result.changes === false ? [] : (result.fields ?? []);
    const response = new provproto.DiffResponse();
    const changes = result.changes ?? changed.length > 0;
    response.setChanges(
      changes
        ? provproto.DiffResponse.DiffChanges.DIFF_SOME
        : provproto.DiffResponse.DiffChanges.DIFF_NONE,
    );
    response.setReplacesList(replaces);
    response.setDeletebeforereplace(result.deleteBeforeReplace ?? false);
    response.setDiffsList(changed.map((field) => field.name));
    for (const field of changed) response.getDetaileddiffMap().set(field.name, propertyDiff(field));
    response.setHasdetaileddiff(true);
    return response;
  }),

  create: serve(async (req: provproto.CreateRequest, call) => {
    const kind = kindOfUrn(req.getUrn());
    const inputs = json(req.getProperties());
    const secret = secretsOf(req.getProperties());
    if (req.getPreview()) {
      return new provproto.CreateResponse().setProperties(outputStruct(kind, inputs, secret));
    }
    const op = engineCall(`create of ${req.getUrn()}`, {
      timeoutSeconds: req.getTimeout(),
      claims: true,
    });
    const result = await runOperation(op, () => providerOf(kind).create(inputs, op), {
      early: kindSpec(kind).cancel?.create?.(inputs, Date.now()),
      call,
    }).catch(keepingSecrets(kind, secret));
    return new provproto.CreateResponse()
      .setId(result.id)
      .setProperties(outputStruct(kind, result.outs, secret));
  }),

  read: serve(async (req: provproto.ReadRequest) => {
    const kind = kindOfUrn(req.getUrn());
    const props = json(req.getProperties());
    // An import sends the id alone; the resource's own inputs (its name) come from the URN.
    const known = Object.keys(props).length > 0 ? props : {};
    const op = engineCall(`read of ${req.getUrn()}`);
    const result = await op.run(() => providerOf(kind).read(req.getId(), known, op));
    const response = new provproto.ReadResponse();
    if (!result.id) return response; // gone: the engine drops it from the state
    const inputs = { ...internalInputs(kind, req.getUrn()), ...(result.inputs ?? {}) };
    const secret = secretsOf(req.getProperties(), req.getInputs());
    return response
      .setId(result.id)
      .setProperties(outputStruct(kind, result.props, secret))
      .setInputs(Struct.fromJavaScript(withSecrets(inputs, secret) as Record<string, never>));
  }),

  update: serve(async (req: provproto.UpdateRequest) => {
    const kind = kindOfUrn(req.getUrn());
    const olds = { ...json(req.getOlds()), ...json(req.getOldInputs()) };
    const news = json(req.getNews());
    const secret = secretsOf(req.getOlds(), req.getOldInputs(), req.getNews());
    if (req.getPreview()) {
      return new provproto.UpdateResponse().setProperties(
        outputStruct(kind, { ...olds, ...news }, secret),
      );
    }
    const op = engineCall(`update of ${req.getUrn()}`, { timeoutSeconds: req.getTimeout() });
    const result = await runOperation(
      op,
      () => providerOf(kind).update(req.getId(), olds, news, op),
      {
        early: kindSpec(kind).cancel?.update?.(req.getId()),
      },
    ).catch(keepingSecrets(kind, secret));
    return new provproto.UpdateResponse().setProperties(outputStruct(kind, result.outs, secret));
  }),

  delete: serve(async (req: provproto.DeleteRequest) => {
    const kind = kindOfUrn(req.getUrn());
    const props = { ...json(req.getProperties()), ...json(req.getOldInputs()) };
    const op = engineCall(`delete of ${req.getUrn()}`, { timeoutSeconds: req.getTimeout() });
    await runOperation(op, () => providerOf(kind).delete(req.getId(), props, op), {
      early: kindSpec(kind).cancel?.delete?.(req.getId()),
    });
    return new Empty();
  }),

  invoke: serve(async (req: provproto.InvokeRequest) => {
    const prefix = pluginToken('');
    const name = req.getTok().startsWith(prefix) ? req.getTok().slice(prefix.length) : '';
    const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (!fn) throw new Error(`${req.getTok()}: not a function of this provider`);
    // As JSON: dates become their ISO text, undefined goes (a protobuf Struct takes neither).
    const answer: unknown = JSON.parse(
      JSON.stringify(await fn.answer(connect().client, json(req.getArgs()))),
    );
    return new provproto.InvokeResponse().setReturn(
      Struct.fromJavaScript(answer as Record<string, never>),
    );
  }),

  // The engine cancels (a first Ctrl-C): nothing is written from now on, and what still waits
  // is answered at once with what exists (operations.ts, the kinds' capabilities). The engine also
  // cancels every provider as it closes a run that ended normally: with nothing running, that is
  // no cancellation anyone asked for, so it is not reported as one.
  cancel: serve(async () => {
    const first = !cancelRequested();
    const running = cancelAll();
    if (first && running > 0)
      say(`cancelled: nothing more is written; ${running} operation(s) in progress end now`);
    return new Empty();
  }),
} as unknown as provrpc.IResourceProviderServer;
