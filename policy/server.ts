import * as grpc from '@grpc/grpc-js';
import * as analyzerrpc from '@pulumi/pulumi/proto/analyzer_grpc_pb';
import * as analyzerproto from '@pulumi/pulumi/proto/analyzer_pb';
import * as plugproto from '@pulumi/pulumi/proto/plugin_pb';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import { packageVersion } from '../provider/client/version';
import { unwrapSecrets } from '../provider/plugin/secrets';
import { BudgetLedger, LIMITS, POLICY_NAME, parseBudget, type Budget, type Level } from './budget';
import { stackState, type StackName } from './state';

/**
 * Pulumi's Analyzer protocol for the budget pack, as the CLI speaks it to a
 * `pulumi-analyzer-policy-<runtime>` plugin: it describes the pack and its policy
 * (GetAnalyzerInfo), takes the stack (ConfigureStack) and the pack's config (Configure), then
 * analyzes each resource before the engine acts on it (Analyze).
 */

export const PACK_NAME = 'pulumi-svc-budget';

const { ADVISORY, MANDATORY, DISABLED } = analyzerproto.EnforcementLevel;
const LEVELS: Record<number, Level | undefined> = {
  [ADVISORY]: 'advisory',
  [MANDATORY]: 'mandatory',
  [DISABLED]: 'disabled',
};

const DESCRIPTION =
  'Limits what a plan makes the stack cost: the monthly total, the monthly and hourly increase, the increase in percent (Svc guests, priced as the BILLING lines).';

function policyInfo(): analyzerproto.PolicyInfo {
  const properties = Object.fromEntries(
    Object.entries(LIMITS).map(([name, description]) => [
      name,
      { type: 'number', minimum: 0, description },
    ]),
  );
  return new analyzerproto.PolicyInfo()
    .setName(POLICY_NAME)
    .setDisplayname('Svc budget')
    .setDescription(DESCRIPTION)
    .setMessage('Lower the plan’s cost, or raise the budget in the pack’s config.')
    .setEnforcementlevel(ADVISORY)
    .setPolicyType(analyzerproto.PolicyType.POLICY_TYPE_RESOURCE)
    .setConfigschema(
      new analyzerproto.PolicyConfigSchema().setProperties(Struct.fromJavaScript(properties)),
    );
}

type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Done<Res> = grpc.sendUnaryData<Res>;

/** Answers a call with what `work` returns, or its error (a refused config, a failed export). */
const answer = <Res>(done: Done<Res>, work: () => Res | Promise<Res>) =>
  void Promise.resolve()
    .then(work)
    .then(
      (res) => done(null, res),
      (err: Error) => done({ code: grpc.status.UNKNOWN, details: err.message }),
    );

/** The analyzer's service; `cwd` is where it runs the user's CLI (the pack's folder). */
export function analyzerService(cwd: string): analyzerrpc.IAnalyzerServer {
  let budget: Budget = { level: 'advisory' };
  let stack: StackName | undefined;
  let ledger: Promise<BudgetLedger> | undefined;
  // The engine analyzes resources in the order it registers them; each sees those before it.
  let queue: Promise<unknown> = Promise.resolve();
  const version = packageVersion();

  const ledgerOf = () => {
    if (!stack) throw new Error('the engine analyzed a resource before it named the stack');
    ledger ??= stackState(stack, cwd).then((state) => new BudgetLedger(budget, state));
    return ledger;
  };

  const diagnostic = (urn: string, message: string, level: number) =>
    new analyzerproto.AnalyzeDiagnostic()
      .setPolicyname(POLICY_NAME)
      .setPolicypackname(PACK_NAME)
      .setPolicypackversion(version)
      .setDescription(DESCRIPTION)
      .setMessage(message)
      .setEnforcementlevel(level)
      .setUrn(urn);

  return {
    getPluginInfo: (_: Call<Empty>, done: Done<plugproto.PluginInfo>) =>
      done(null, new plugproto.PluginInfo().setVersion(version)),
    handshake: (
      _: Call<analyzerproto.AnalyzerHandshakeRequest>,
      done: Done<analyzerproto.AnalyzerHandshakeResponse>,
    ) => done(null, new analyzerproto.AnalyzerHandshakeResponse()),
    getAnalyzerInfo: (_: Call<Empty>, done: Done<analyzerproto.AnalyzerInfo>) =>
      done(
        null,
        new analyzerproto.AnalyzerInfo()
          .setName(PACK_NAME)
          .setDisplayname('pulumi-svc budget')
          .setVersion(version)
          .setDescription(DESCRIPTION)
          .setSupportsconfig(true)
          .setPoliciesList([policyInfo()]),
      ),
    configureStack: (
      call: Call<analyzerproto.AnalyzerStackConfigureRequest>,
      done: Done<analyzerproto.AnalyzerStackConfigureResponse>,
    ) => {
      const r = call.request;
      stack = { organization: r.getOrganization(), project: r.getProject(), stack: r.getStack() };
      done(null, new analyzerproto.AnalyzerStackConfigureResponse());
    },
    configure: (call: Call<analyzerproto.ConfigureAnalyzerRequest>, done: Done<Empty>) =>
      answer(done, () => {
        const config = call.request.getPolicyconfigMap().get(POLICY_NAME);
        if (config) {
          const level = LEVELS[config.getEnforcementlevel()];
          if (!level)
            throw new Error(
              `${POLICY_NAME}: enforcementLevel must be advisory, mandatory or disabled (a budget remediates nothing)`,
            );
          budget = parseBudget(level, (config.getProperties()?.toJavaScript() ?? {}) as never);
        }
        return new Empty();
      }),
    analyze: (
      call: Call<analyzerproto.AnalyzeRequest>,
      done: Done<analyzerproto.AnalyzeResponse>,
    ) => {
      const r = call.request;
      const inputs = unwrapSecrets(r.getProperties()?.toJavaScript() ?? {}) as Record<
        string,
        unknown
      >;
      const work = queue.then(async () => {
        const findings = (await ledgerOf()).analyze(r.getType(), r.getUrn(), inputs);
        return new analyzerproto.AnalyzeResponse().setDiagnosticsList(
          findings.map((f) => diagnostic(f.urn, f.message, f.blocking ? MANDATORY : ADVISORY)),
        );
      });
      queue = work.catch(() => undefined);
      answer(done, () => work);
    },
    analyzeStack: (
      _: Call<analyzerproto.AnalyzeStackRequest>,
      done: Done<analyzerproto.AnalyzeResponse>,
    ) => done(null, new analyzerproto.AnalyzeResponse()),
    remediate: (
      _: Call<analyzerproto.AnalyzeRequest>,
      done: Done<analyzerproto.RemediateResponse>,
    ) => done(null, new analyzerproto.RemediateResponse()),
    cancel: (_: Call<Empty>, done: Done<Empty>) => done(null, new Empty()),
  };
}
