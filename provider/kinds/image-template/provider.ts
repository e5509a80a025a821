import { AccountManager, ImageManager, type ImageTemplate } from '../../managers';
import { poll } from '../../client/poll';
import { unlessNotFound } from '../../managers/not-found';
import { claimSent } from '../../framework/claims';
import { freeWriteWindowMs, outcomeWindowMs, type Connection } from '../../framework/connection';
import { creationToken } from '../../framework/creation-token';
import { requireEngine } from '../../framework/engine-watch';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import { takeBack, tokenFieldMark } from '../../framework/handed-mark';
import type { InputsOf, StateOf } from '../../framework/fields';
import {
  kindProvider,
  type CheckRulesRequest,
  type CheckWithApiRequest,
  type CreateRequest,
  type DeleteRequest,
  type EditRequest,
  type PlanRequest,
} from '../../framework/kind-provider';
import { say } from '../../framework/log';
import { boundedWait, type OperationRequest } from '../../framework/operation';
import { initFailure } from '../../framework/runtime-provider';
import { isKnown } from '../../framework/unknown';
import { IMAGE_TEMPLATE_FIELDS } from './fields';

/**
 * `ImageTemplate`: a private template captured from a guest (`createArchiveTransaction`), waited
 * for until active (bounded by `readyTimeoutMinutes` and the engine's deadline), its name, note
 * and datacenters kept as declared, deleted.
 *
 * Captured exactly once: the capture carries the resource's creation token as its note, the one
 * mark a capture writes with the template itself, so a capture whose answer was lost, or whose
 * CLI was killed while it ran, is found by it and never sent twice. The declared note replaces the
 * token last, right before the engine records the id (the handover); a template still noted with
 * the token is therefore an unfinished create's, which the next create takes over. The handover
 * is a claim (framework/claims.ts): a run whose engine never saw the answer puts the token back.
 */

type Fields = typeof IMAGE_TEMPLATE_FIELDS;
type Inputs = InputsOf<Fields>;

const images = (c: Connection) => c.use(ImageManager);
const name = (v: { resourceName?: string }) => `ImageTemplate "${v.resourceName ?? ''}"`;
const isActive = (t: ImageTemplate) => t.status?.keyName === 'ACTIVE';

/** The templates whose note is the token: what this resource's unfinished creates captured. */
const capturedWith = (c: Connection, token: string) =>
  images(c).listPrivate({ note: { operation: token } });

/** A create names its guest (an import has none); a datacenters list names at least one. */
export function checkImageTemplateRules({ inputs, olds, failures }: CheckRulesRequest<Fields>) {
  if (inputs.guestId === undefined && Object.keys(olds).length === 0)
    failures.add(
      'guestId',
      'guestId is required: the id of the guest to capture the template from',
    );
  if (Array.isArray(inputs.datacenters) && inputs.datacenters.length === 0)
    failures.add('datacenters', 'datacenters must name at least one datacenter, or be left out');
}

/** The datacenters' ids by short name; undefined for a name the API does not know. */
async function datacenterIds(c: Connection, names: readonly string[]) {
  const all = await c.use(AccountManager).getDatacenters();
  return names.map((n) => all.find((d) => d.name === n)?.id);
}

/** The guest exists and the datacenters are known: before anything is captured. */
async function checkWithApi({
  connection: c,
  inputs,
  olds,
  failures,
}: CheckWithApiRequest<Fields>) {
  const names = inputs.datacenters;
  if (names && names.every(isKnown)) {
    const ids = await datacenterIds(c, names);
    const unknown = names.filter((_, i) => ids[i] === undefined);
    if (unknown.length > 0)
      failures.add('datacenters', `datacenters: no datacenter named ${unknown.join(', ')}`);
  }
  if (isKnown(inputs.guestId) && inputs.guestId !== olds.guestId) {
    const guest = await unlessNotFound(
      c.client.call('Virtual_Guest', 'getObject', { id: inputs.guestId, mask: 'id' }),
    );
    if (!guest) failures.add('guestId', `guestId: the account has no guest ${inputs.guestId}`);
  }
  return { creationToken: olds.creationToken ?? creationToken(inputs) };
}

/** Waits until the capture is done; the id is kept when the wait runs out. */
async function captured(
  c: Connection,
  id: number,
  inputs: Partial<Inputs>,
  request: OperationRequest | undefined,
): Promise<ImageTemplate> {
  const timeoutMs = boundedWait(request, Number(inputs.readyTimeoutMinutes ?? 30) * 60_000);
  const { value, done } = await poll(() => images(c).getTemplate(id), isActive, {
    timeoutMs,
    firstMs: 500,
    growth: 1.5,
    maxMs: 10_000,
  });
  if (!done)
    throw initFailure(
      `${name(inputs)}: template ${id} is still being captured after ${Math.round(timeoutMs / 1000)} s; it is kept in the stack and the next \`pulumi up\` carries on with it`,
      String(id),
      { ...inputs },
    );
  return value;
}

/** Datacenters as declared (when declared), then name and note: the declared note last. */
async function converge(c: Connection, template: ImageTemplate, inputs: Partial<Inputs>) {
  const manager = images(c);
  const declared = inputs.datacenters;
  const now = (template.datacenters ?? []).map((d) => d.name).sort();
  if (declared && JSON.stringify(now) !== JSON.stringify([...declared].sort())) {
    const ids = (await datacenterIds(c, declared)).filter((d) => d !== undefined);
    await manager.setLocations(template.id, ids);
  }
  const note = inputs.note ?? '';
  if (template.name !== inputs.name || (template.note ?? '') !== note)
    await writeIdempotent({
      what: `${name(inputs)} (id ${template.id}) edit`,
      write: () => manager.edit(template.id, { name: inputs.name, note }),
      done: async () => {
        const t = await manager.getTemplate(template.id);
        return t.name === inputs.name && (t.note ?? '') === note;
      },
      windowMs: freeWriteWindowMs(),
    });
}

/** The note holds the token until the handover (framework/handed-mark.ts). */
const handedMark = (c: Connection, id: number, token: string, note: string | undefined) =>
  tokenFieldMark(
    `template ${id}`,
    token,
    async () => {
      const now = await images(c).findTemplate(id);
      return now ? (now.note ?? '') : null;
    },
    (value) => images(c).edit(id, { note: value }),
    note ?? '',
  );

async function create({ connection: c, inputs, request }: CreateRequest<Fields>) {
  const token = inputs.creationToken ?? creationToken(inputs);
  const what = name(inputs);
  const earlier = await capturedWith(c, token);
  if (earlier.length > 1)
    throw new Error(
      `${what}: templates ${earlier.map((t) => t.id).join(', ')} all carry this resource's creation token; nothing was captured. Import the one to keep (\`pulumi import\`) and delete the others`,
    );
  const template =
    earlier[0] ??
    (await createOnce({
      what: `${what} capture of guest ${inputs.guestId}`,
      write: async () => {
        await images(c).capture(Number(inputs.guestId), {
          name: inputs.name,
          note: token,
          additionalDisks: inputs.includeAdditionalDisks,
        });
        const [made] = await capturedWith(c, token);
        if (!made) throw new Error(`the capture started but no template carries ${token} yet`);
        return made;
      },
      find: async () => (await capturedWith(c, token))[0],
      windowMs: outcomeWindowMs(),
      nextRun: `The next \`pulumi up\` looks for a template noted ${token} before it captures one.`,
    }));
  if (earlier[0])
    say(`${what}: template ${template.id} was captured by an earlier unfinished create; using it`);
  const outs = { creationToken: token };
  const ready = await captured(c, template.id, { ...inputs, ...outs }, request);
  try {
    await requireEngine();
    claimSent({
      what: `template ${template.id}`,
      release: () => takeBack(handedMark(c, template.id, token, inputs.note)),
    });
    await converge(c, ready, inputs);
    return { id: template.id, object: await images(c).getTemplate(template.id), outs };
  } catch (err) {
    throw initFailure(
      `${what}: template ${template.id} was captured, then ${(err as Error).message}; it is kept in the stack and the next \`pulumi up\` sets its name, note and datacenters again`,
      String(template.id),
      { ...inputs, ...outs },
    );
  }
}

/** Name, note and datacenters as declared, once the capture is done (a create that timed out). */
async function edit({ connection: c, id, inputs, request }: EditRequest<Fields>) {
  const template = await captured(c, Number(id), inputs, request);
  await converge(c, template, inputs);
}

/** A template captured before its guest was recorded (an import) is not replaced for it. */
async function plan({ olds, changed }: PlanRequest<Fields>) {
  const replaces = changed.filter(
    (f) => f === 'includeAdditionalDisks' || (f === 'guestId' && olds.guestId !== undefined),
  );
  return { replaces, inPlace: changed.filter((f) => !replaces.includes(f)) };
}

async function remove({ connection: c, id, state, request }: DeleteRequest<Fields>) {
  const templateId = Number(id);
  const current = await images(c).findTemplate(templateId);
  if (!current) return `${name(state)} (id ${id}) is already gone`;
  // The API refuses to delete a template while its capture runs.
  if (!isActive(current)) await captured(c, templateId, state, request);
  await writeIdempotent({
    what: `${name(state)} (id ${id}) deletion`,
    write: () => images(c).deleteTemplate(templateId),
    done: async () => (await images(c).findTemplate(templateId)) === undefined,
    windowMs: freeWriteWindowMs(),
  });
}

export const imageTemplateProvider = kindProvider(IMAGE_TEMPLATE_FIELDS, {
  describe: (state, id) => `${name(state)} (id ${id})`,
  fetch: ({ connection, id }) => images(connection).findTemplate(Number(id)),
  checkRules: checkImageTemplateRules,
  checkWithApi,
  create,
  edit,
  plan,
  delete: remove,
  editAlways: true,
  owned: true,
});

export type ImageTemplateState = StateOf<Fields>;
