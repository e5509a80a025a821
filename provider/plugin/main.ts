#!/usr/bin/env node
/**
 * `pulumi-resource-svc`: the provider plugin the Pulumi CLI starts (through the launcher beside
 * it). Serves Pulumi's provider protocol on a loopback port and prints the port.
 *
 * It ends when the engine that started it is gone (a SIGKILLed `pulumi up`: the CLI starts its
 * plugins and language host in process groups of their own, so they outlive it), and takes what
 * is left of that run with it: the language host (a YAML program's host runs no code of this
 * package that could notice). It looks every 2 s, on a broken stdout or stderr, when it is told
 * to stop (SIGINT, SIGTERM), and right before every write (framework/write-gate.ts), so nothing is
 * ordered or marked owned for an engine that cannot record it. run.ts says how it knows its run.
 */
import * as grpc from '@grpc/grpc-js';
import * as provrpc from '@pulumi/pulumi/proto/provider_grpc_pb';
import { ENGINE_ADDRESS, engineAlive, stopRun, watchEngine } from '../framework/engine-watch';
import { logToEngine } from './engine-log';
import { cliEnded, pulumiRun } from './run';
import { service } from './server';

/**
 * Watches the run's engine (framework/engine-watch.ts, as the dynamic door does). The CLI of a run
 * that is still there closes the run itself; only one that is gone (killed) leaves the language
 * host to end. Before it exits, what creates the engine never saw answered had marked owned is
 * released (framework/claims.ts).
 */
function watchRun(engine: string): void {
  const run = pulumiRun(engine);
  watchEngine({
    engine: run.engine,
    reap: () => !run.cli || cliEnded(run),
    // The language host that started this process for the schema is gone: its run goes on.
    alsoCheck: async () => {
      if (run.engine !== engine && !(await engineAlive(engine))) process.exit(0);
    },
  });
  // How a language host or the CLI closes its plugins (SIGINT, then SIGKILL): the YAML host
  // closes the one it started when its program ends, which is at once when the CLI is killed.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => (cliEnded(run) ? void stopRun() : process.exit(0)));
  }
}

async function main(args: string[]): Promise<void> {
  const engine = args.find((arg) => ENGINE_ADDRESS.test(arg));
  if (engine) {
    watchRun(engine);
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
