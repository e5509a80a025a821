import { pulumiJson, type StateResource } from '../commands/pulumi';

/** The stack an analyzer runs for, as the engine names it in ConfigureStack. */
export interface StackName {
  organization: string;
  project: string;
  stack: string;
}

/**
 * The stack's resources as its state holds them now, before the plan (`pulumi stack export`, by
 * the user's own CLI: the engine does not send an analyzer the old state). The analyzer runs in
 * the pack's folder, so the stack is named in full. A stack with no state yet has no resources.
 */
export async function stackState(name: StackName, cwd: string): Promise<StateResource[]> {
  const full = [name.organization, name.project, name.stack].filter(Boolean).join('/');
  const exported = await pulumiJson<{ deployment?: { resources?: StateResource[] } }>(
    ['stack', 'export', '--stack', full],
    { cwd },
  );
  return exported.deployment?.resources ?? [];
}
