import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProjectStack } from '../../scripts/project-stack';

/**
 * What README's "A lost checkpoint" tells a user of the file backend to do when the stack's
 * checkpoint is lost or empty (`pulumi stack export`: `failed to load checkpoint`): import the
 * state of the last update that completed, which the backend keeps in its history
 * (`.pulumi/history/<project>/<stack>/<stack>-<time>.checkpoint.json`). The next `up` then adopts
 * by creation token what the lost run ordered and never handed to a state.
 */

/** Whether the stack's checkpoint cannot be read (lost, empty, cut off). */
export async function checkpointLost(stack: ProjectStack): Promise<boolean> {
  try {
    await stack.resources();
    return false;
  } catch (err) {
    return /failed to load checkpoint/.test((err as Error).message);
  }
}

/** Empties the stack's checkpoint in its file backend, as a CLI killed while writing it did. */
export function emptyCheckpoint(stack: ProjectStack, project: string): void {
  fs.writeFileSync(checkpointFile(stack, project), '');
}

const checkpointFile = (stack: ProjectStack, project: string) =>
  path.join(
    stack.options.stateDir,
    '.pulumi',
    'stacks',
    project,
    `${stack.options.stackName}.json`,
  );

/**
 * Imports the newest checkpoint of the backend's history into the stack (`pulumi stack import`,
 * its `latest` deployment); the file imported, or undefined when the stack has no history yet (a
 * first `up` lost: nothing to import, the next `up` adopts by token).
 */
export async function restoreFromHistory(
  stack: ProjectStack,
  project: string,
): Promise<string | undefined> {
  const name = stack.options.stackName;
  const dir = path.join(stack.options.stateDir, '.pulumi', 'history', project, name);
  const checkpoints = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((file) => file.endsWith('.checkpoint.json'))
        .sort((a, b) => (BigInt(timeOf(b)) > BigInt(timeOf(a)) ? 1 : -1))
    : [];
  if (checkpoints.length === 0) {
    fs.rmSync(checkpointFile(stack, project));
    await stack.init();
    return undefined;
  }
  const newest = path.join(dir, checkpoints[0]);
  const { version, checkpoint } = JSON.parse(fs.readFileSync(newest, 'utf8')) as {
    version: number;
    checkpoint: { latest?: unknown };
  };
  const deployment = path.join(path.dirname(stack.options.stateDir), `${name}-restored.json`);
  fs.writeFileSync(deployment, JSON.stringify({ version, deployment: checkpoint.latest ?? {} }));
  await stack.run(['stack', 'import', '--file', deployment]);
  return newest;
}

/** The time in a history file's name (`<stack>-<unix nanoseconds>.checkpoint.json`). */
const timeOf = (file: string) => /-(\d+)\.checkpoint\.json$/.exec(file)?.[1] ?? '0';
