import { AUDIT_COMMAND } from './audit-command';
import { BILLING_COMMAND } from './billing-command';
import type { Command } from './command';
import { MIGRATE_COMMAND } from './migrate-command';

/**
 * Every `pulumi-svc` command: its options, help and handler (command.ts). cli.ts serves this
 * table and nothing else; a command is one `<name>-command.ts` and one line here.
 */
export const COMMANDS: Readonly<Record<string, Command>> = {
  billing: BILLING_COMMAND,
  audit: AUDIT_COMMAND,
  migrate: MIGRATE_COMMAND,
};
