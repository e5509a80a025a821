import type { StateOf } from '../../framework/fields';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import { creationToken } from '../../framework/creation-token';
import { tokenFieldMark } from '../../framework/handed-mark';
import { orderOnce, thenHandOver } from '../order-once';
import {
  kindProvider,
  type CreateRequest,
  type DeleteRequest,
  type EditRequest,
} from '../../framework/kind-provider';
import {
  SecurityGroupManager,
  type SecurityGroup,
  type SecurityGroupRuleSpec,
} from '../../managers';
import { IDLE_PACE } from '../../managers/paces';
import { poll } from '../../client/poll';
import { boundedWait } from '../../framework/operation';
import { SECURITY_GROUP_FIELDS } from './fields';
import { checkRules, isEmptyPlan, planRules, sameRules } from './rules';

/**
 * `SecurityGroup`: a named list of rules (`Svc_Network_SecurityGroup`). The rules are inline, not
 * a kind of their own: the API keeps a group's rules as one list it edits in place
 * (`addRules`, `editRules`, `removeRules` on the group), and a rule has no life outside its
 * group. The resource owns the whole list, so what refresh finds added or removed by hand is
 * drift that `up` repairs. A group still bound to a guest's interface is not deleted, and the
 * error says which guests to detach it from first and how (a `VirtualGuest` of a stack detaches
 * its groups itself before it is cancelled, so a destroy of both never meets this). A group
 * another group's rule names waits for that rule to go, bounded (`untilUnreferred`).
 *
 * Made exactly once: a group has no place for a token but its description, so the create writes
 * the resource's creation token there, and the handover (the create's last write, a claim) writes
 * the declared description over it. A group still described by the token is an unfinished
 * create's (a killed CLI, a lost answer), which the next create takes over with its rules.
 */

type Fields = typeof SECURITY_GROUP_FIELDS;

const groups = (c: Connection) => c.use(SecurityGroupManager);

const describe = (state: Partial<StateOf<Fields>>, id: string) =>
  `SecurityGroup ${JSON.stringify(state.name ?? '')} (id ${id})`;

/** Makes the group's rules the declared ones; each write is checked by reading them back. */
async function syncRules(
  c: Connection,
  id: number,
  what: string,
  declared: SecurityGroupRuleSpec[],
) {
  const manager = groups(c);
  const rulesNow = async () => (await manager.getGroup(id)).rules ?? [];
  const plan = planRules(declared, await rulesNow());
  if (isEmptyPlan(plan)) return;
  await writeIdempotent({
    what: `${what} rules`,
    write: async () => {
      if (plan.edit.length > 0) await manager.editRules(id, plan.edit);
      if (plan.remove.length > 0) await manager.removeRules(id, plan.remove);
      if (plan.add.length > 0) await manager.addRules(id, plan.add);
    },
    // The rules converge on the declared ones however much of the write was applied.
    done: async () =>
      sameRules(
        declared,
        (await rulesNow()).map((r) => r),
      ),
    windowMs: freeWriteWindowMs(),
  });
}

async function create({ connection: c, inputs }: CreateRequest<Fields>) {
  const manager = groups(c);
  const token = inputs.creationToken ?? creationToken(inputs);
  const what = `SecurityGroup ${JSON.stringify(inputs.name)}`;
  const group = await orderOnce({
    what,
    noun: 'group',
    token,
    free: true,
    // Only an unfinished create's group carries the token: the handover writes it over.
    found: async () =>
      (await manager.listGroups('id,description')).filter((g) => g.description === token),
    handed: () => false,
    place: () => manager.createGroup({ name: inputs.name, description: token }),
  });
  const where = `${what} (id ${group.id})`;
  const outs = { creationToken: token };
  const mark = tokenFieldMark(
    `group ${group.id}`,
    token,
    async () => {
      const now = await manager.findGroup(group.id);
      // The API leaves an empty description out of its answer.
      return now ? (now.description ?? '') : null;
    },
    // With the declared name: a group an earlier create left may bear an older one.
    (description) => manager.editGroup(group.id, { name: inputs.name, description }),
    inputs.description ?? '',
  );
  const made = await thenHandOver(
    group,
    mark,
    { ...inputs, ...outs, rules: [] },
    async () => {
      await syncRules(c, group.id, where, inputs.rules);
      return manager.getGroup(group.id);
    },
    (message) =>
      `${where} was made, then setting its rules failed: ${message}. It is kept in the stack; the next \`pulumi up\` sets its rules again`,
  );
  // The handover wrote the declared name and description over the token: the group as it is now.
  const handed = { ...made, name: inputs.name, description: inputs.description };
  return { id: group.id, object: handed, outs };
}

/**
 * Name and description as declared, written when the group shows otherwise (so an update of one
 * whose create failed before its handover finishes that create), then the rules.
 */
async function edit({ connection: c, id, inputs, changed }: EditRequest<Fields>) {
  const manager = groups(c);
  const wanted = { name: inputs.name, description: inputs.description ?? '' };
  const now = await manager.findGroup(Number(id));
  if (now && (now.name !== wanted.name || (now.description ?? '') !== wanted.description))
    await manager.editGroup(Number(id), wanted);
  if (changed.includes('rules')) await syncRules(c, Number(id), describe(inputs, id), inputs.rules);
  return { object: await manager.getGroup(Number(id)) };
}

/** The guests a group is bound to, as a person finds them. */
const boundGuests = (group: SecurityGroup) =>
  [
    ...new Set(
      (group.networkComponentBindings ?? []).map((b) => {
        const guest = b.networkComponent?.guest;
        return guest
          ? `${guest.hostname ?? 'guest'} (id ${guest.id})`
          : `component ${b.networkComponentId}`;
      }),
    ),
  ].join(', ');

/** How long a delete waits for other groups' rules naming this one to go (a destroy of both). */
const REFERRED_WAIT_MS = 60_000;

/** The rules of the account's other groups whose remote group is `id`, as a person finds them. */
async function referringRules(manager: SecurityGroupManager, id: number): Promise<string[]> {
  const all = await manager.listGroups('id,name,rules[id,remoteGroupId]');
  return all
    .filter((g) => g.id !== id)
    .flatMap((g) =>
      (g.rules ?? [])
        .filter((r) => r.remoteGroupId === id)
        .map((r) => `rule ${r.id} of ${JSON.stringify(g.name ?? '')} (id ${g.id})`),
    );
}

/**
 * The API refuses to delete a group another group's rule names as its remote group. When both
 * go in one destroy with no dependency between them (a rule's `remoteGroupId` written as a
 * number, as `pulumi import` writes it), the other group's delete removes that rule: wait for
 * it, bounded, then say which rules hold the group and what to do.
 */
async function untilUnreferred(
  manager: SecurityGroupManager,
  what: string,
  id: number,
  request: DeleteRequest<Fields>['request'],
) {
  const { value, done } = await poll(
    () => referringRules(manager, id),
    (rules) => rules.length === 0,
    { ...IDLE_PACE, timeoutMs: boundedWait(request, REFERRED_WAIT_MS) },
  );
  if (!done)
    throw new Error(
      `${what} is the remote group of ${value.join(', ')}. Deleting it is refused while a rule ` +
        `names it: remove or edit those rules first (a group of a stack: change its rules and ` +
        `run \`pulumi up\`; one whose remoteGroupId is this group's \`groupId\` output is ` +
        `deleted first by a destroy of both).`,
    );
}

async function remove({ connection: c, id, state, request }: DeleteRequest<Fields>) {
  const manager = groups(c);
  const group = await manager.findGroup(Number(id));
  if (!group) return 'already gone';
  if ((group.networkComponentBindings ?? []).length > 0)
    throw new Error(
      `${describe(state, id)} is still bound to ${boundGuests(group)}. Deleting a bound group is ` +
        `refused: detach it from those guests first (a VirtualGuest of a stack: remove the group ` +
        `from its securityGroupIds or privateSecurityGroupIds and run \`pulumi up\`; another ` +
        `guest: \`slcli sg interface-remove\`, or Network_SecurityGroup.detachNetworkComponents), ` +
        `then delete the group.`,
    );
  await untilUnreferred(manager, describe(state, id), Number(id), request);
  await writeIdempotent({
    what: `${describe(state, id)} deletion`,
    write: () => manager.deleteGroup(Number(id)),
    done: async () => (await manager.findGroup(Number(id))) === undefined,
    windowMs: freeWriteWindowMs(),
  });
  return 'deleted';
}

export const securityGroupProvider = kindProvider(SECURITY_GROUP_FIELDS, {
  describe,
  fetch: ({ connection, id }) => groups(connection).findGroup(Number(id)),
  create,
  edit,
  editAlways: true,
  delete: remove,
  // Each rule is checked with the rule table (failures named `rules[i].field`).
  checkRules: async ({ inputs, olds, failures }) => ({
    rules: checkRules(inputs.rules, failures) as SecurityGroupRuleSpec[],
    creationToken: olds.creationToken ?? creationToken(inputs),
  }),
  owned: true,
});
