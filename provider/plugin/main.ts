#!/usr/bin/env node
/**
 * `pulumi-resource-svc`: the provider plugin the Pulumi CLI starts (through the launcher beside
 * it). Serves Pulumi's provider protocol on a loopback port and prints the port.
 *
 * It ends when the engine that started it is gone (a SIGKILLed `pulumi up`: the CLI starts its
 * plugins and language host in process groups of their own, so they outlive it), and takes what
 * is left of that run with it: the language host (a YAML program's host runs no code of this
 * package that could notice). It looks every 2 s, on a broken stdout or stderr, when it is told
 * to stop (SIGINT, SIGTERM), and right before every write (operations.ts), so nothing is ordered
 * or marked owned for an engine that cannot record it. run.ts says how it knows its run.
 */
import * as grpc from '@grpc/grpc-js';
import * as provrpc from '@pulumi/pulumi/proto/provider_grpc_pb';
import { engineAlive } from '../framework/engine-watch';
import { say } from '../framework/log';
import { reapRun } from '../framework/pulumi-run';
import { logToEngine } from './engine-log';
import { releasesDone, setBeforeWrite } from './operations';
import { cliEnded, pulumiRun, type PulumiRun } from './run';
import { service } from './server';

const ENGINE_CHECK_MS = 2_000;

/** How long an exiting plugin waits for the release of claims the engine never saw. */
const RELEASE_WAIT_MS = 15_000;
let stopping: Promise<never> | undefined;

/**
 * Ends this process; when the run's CLI is gone (killed), with what is left of its run: the
 * language host (pulumi-run.ts). A CLI that is still there closes its run itself. Before it
 * exits, what creates the engine abandoned had marked owned is released (operations.ts).
 */
function stop(run: PulumiRun): Promise<never> {
  stopping ??= (async () => {
    if (!run.cli || cliEnded(run)) reapRun(run.engine);
    await releasesDone(RELEASE_WAIT_MS);
    process.exit(1);
  })();
  return stopping;
}

/** Stops the plugin once its engine, or its run's, is gone (see the module comment). */
function watchEngine(engine: string): void {
  const run = pulumiRun(engine);
  const check = async () => {
    if (!(await engineAlive(run.engine))) await stop(run);
    // The language host that started this process for the schema is gone: its run goes on.
    if (run.engine !== engine && !(await engineAlive(engine))) process.exit(0);
  };
  setInterval(() => void check(), ENGINE_CHECK_MS).unref();
  // A write to the stdout the CLI no longer reads fails with EPIPE; Node's handler would print
  // that error to the same pipe without end.
  const onPipeError = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') void check().then(() => process.exit(1));
  };
  process.stdout.on('error', onPipeError);
  process.stderr.on('error', onPipeError);
  // How a language host or the CLI closes its plugins (SIGINT, then SIGKILL): the YAML host
  // closes the one it started when its program ends, which is at once when the CLI is killed.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => (cliEnded(run) ? void stop(run) : process.exit(0)));
  }
  setBeforeWrite(async () => {
    if (await engineAlive(run.engine)) return;
    say(`the Pulumi engine at ${run.engine} is gone; stopping before anything else is written`);
    await stop(run);
  });
}

async function main(args: string[]): Promise<void> {
  const engine = args.find((arg) => /^[\w.-]+:\d+$/.test(arg));
  if (engine) {
    watchEngine(engine);
    logToEngine(engine);
  }
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  console.log(String(port));
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`pulumi-resource-svc: ${err.message}`);
  process.exit(1);
});
