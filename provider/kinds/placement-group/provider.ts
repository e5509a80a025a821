import type { StateOf } from '../../framework/fields';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { creationToken } from '../../framework/creation-token';
import { writeIdempotent } from '../../framework/exactly-once';
import { tokenFieldMark } from '../../framework/handed-mark';
import { orderOnce, thenHandOver } from '../order-once';
import {
  kindProvider,
  type CheckWithApiRequest,
  type CreateRequest,
  type DeleteRequest,
} from '../../framework/kind-provider';
import { isKnown } from '../../framework/unknown';
import { PLACEMENT_GROUP_FIELDS, type PlacementGroup } from './fields';
import {
  createGroup,
  deleteGroup,
  findGroup,
  listGroups,
  renameGroup,
  routersIn,
  ruleId,
  type BackendRouter,
} from './api';

/**
 * `PlacementGroup`: guests kept apart by a rule (`Svc_Virtual_PlacementGroup`), behind one
 * backend router, so in one pod. Not billed. The name changes in place; the datacenter, the
 * router and the rule are fixed when the group is made, so a change of them replaces it. The API
 * deletes only an empty group, and a guest leaves a group only when it is cancelled: a delete of
 * a group that still holds guests is refused, naming them.
 *
 * Made exactly once: a group has no place for a token but its name, so the create names it by the
 * resource's creation token, and the handover (the create's last write, a claim) renames it as
 * declared. A group still named by the token is an unfinished create's (a killed CLI, a lost
 * answer), which the next create takes over.
 */

type Fields = typeof PLACEMENT_GROUP_FIELDS;

const describe = (state: Partial<StateOf<Fields>>, id: string) =>
  `PlacementGroup ${JSON.stringify(state.name ?? '')} (id ${id})`;

/** The router the inputs name, or the datacenter's first; an Error naming the field if none fits. */
async function routerFor(
  c: Connection,
  inputs: { datacenter: string; backendRouterId?: number },
): Promise<BackendRouter> {
  const routers = await routersIn(c.client, inputs.datacenter);
  const offered = routers.map((r) => `${r.id} (${r.fullyQualifiedDomainName})`).join(', ');
  if (inputs.backendRouterId === undefined) {
    if (!routers[0])
      throw new Error(
        `datacenter: ${inputs.datacenter} has no backend router that takes placement groups (Virtual_PlacementGroup.getAvailableRouters); choose another datacenter`,
      );
    return routers[0];
  }
  const router = routers.find((r) => r.id === inputs.backendRouterId);
  if (!router)
    throw new Error(
      `backendRouterId: ${inputs.backendRouterId} is not a backend router of ${inputs.datacenter} that takes placement groups; ${offered ? `it offers ${offered}` : 'it offers none'}`,
    );
  return router;
}

/** The datacenter and router must offer groups: said in preview, before anything is made. */
async function checkWithApi({
  connection: c,
  inputs,
  olds,
  failures,
}: CheckWithApiRequest<Fields>) {
  const derived = { creationToken: olds.creationToken ?? creationToken(inputs) };
  if (![inputs.datacenter, inputs.backendRouterId].every((v) => v === undefined || isKnown(v)))
    return derived;
  try {
    await routerFor(c, inputs);
  } catch (err) {
    const message = (err as Error).message;
    failures.add(message.startsWith('backendRouterId') ? 'backendRouterId' : 'datacenter', message);
  }
  return derived;
}

async function create({ connection: c, inputs }: CreateRequest<Fields>) {
  const what = `PlacementGroup ${JSON.stringify(inputs.name)}`;
  const token = inputs.creationToken ?? creationToken(inputs);
  const router = await routerFor(c, inputs);
  const group = await orderOnce({
    what,
    noun: 'group',
    token,
    free: true,
    // Only an unfinished create's group is named by the token (the handover renames it); one
    // behind another router or with another rule is not what these inputs make.
    found: async () =>
      (await listGroups(c.client)).filter(
        (g) =>
          g.name === token && g.backendRouterId === router.id && g.rule?.keyName === inputs.rule,
      ),
    handed: () => false,
    place: async () =>
      createGroup(c.client, {
        name: token,
        backendRouterId: router.id,
        ruleId: await ruleId(c.client, inputs.rule),
      }),
  });
  const mark = tokenFieldMark(
    `placement group ${group.id}`,
    token,
    async () => {
      const now = await findGroup(c.client, group.id);
      return now ? (now.name ?? '') : null;
    },
    (name) => renameGroup(c.client, group.id, name),
    inputs.name,
  );
  const outs = { creationToken: token };
  const made = await thenHandOver(
    group,
    mark,
    { ...inputs, ...outs },
    async () => (await findGroup(c.client, group.id)) ?? group,
    (message) => `${what} (id ${group.id}) was made, then reading it failed: ${message}`,
  );
  // The handover wrote the declared name over the token: the group as it is now.
  return { id: group.id, object: { ...made, name: inputs.name }, outs };
}

/** The guests a group holds, as a person finds them. */
const guestsOf = (group: PlacementGroup) =>
  (group.guests ?? []).map((g) => `${g.hostname ?? 'guest'} (id ${g.id})`).join(', ');

async function remove({ connection: c, id, state }: DeleteRequest<Fields>) {
  const group = await findGroup(c.client, Number(id));
  if (!group) return 'already gone';
  if ((group.guests ?? []).length > 0)
    throw new Error(
      `${describe(state, id)} still holds guests ${guestsOf(group)}. The API deletes only an empty ` +
        `placement group, and a guest leaves it only when the guest is cancelled: delete those ` +
        `guests (or take them out of the program) first, then delete the group.`,
    );
  await writeIdempotent({
    what: `${describe(state, id)} deletion`,
    write: () => deleteGroup(c.client, Number(id)),
    done: async () => (await findGroup(c.client, Number(id))) === undefined,
    windowMs: freeWriteWindowMs(),
  });
  return 'deleted';
}

export const placementGroupProvider = kindProvider(PLACEMENT_GROUP_FIELDS, {
  describe,
  fetch: ({ connection, id }) => findGroup(connection.client, Number(id)),
  checkWithApi,
  create,
  // The name as declared, written when the group shows otherwise (so an update of one whose
  // create failed before its handover finishes that create).
  edit: async ({ connection, id, inputs }) => {
    const now = await findGroup(connection.client, Number(id));
    if (now && now.name !== inputs.name)
      await renameGroup(connection.client, Number(id), inputs.name);
  },
  editAlways: true,
  delete: remove,
  owned: true,
});
