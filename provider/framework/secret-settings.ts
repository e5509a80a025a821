import { SETTINGS } from './settings';

/**
 * One rule for both front doors: a secret setting (the table's `secret`, `svc:apiKey`) is never
 * kept in plain text where Pulumi keeps a stack's state.
 *
 * - A door that can tell a secret config value from a plain one refuses the plain one before
 *   anything runs: the dynamic resources' program (the language host lists the secret keys), whose
 *   provider's inputs are the program's config and would go into the state unencrypted.
 * - A door that cannot tell marks the value secret in what it hands back: the plugin, to which the
 *   engine hands every config value in plain text (CheckConfig), and whose answer the state keeps.
 *
 * Either way the value stays in plain text in the stack's config file and update history unless it
 * is set with `--secret`: both doors say so.
 */
export const SECRET_SETTINGS: readonly string[] = SETTINGS.filter((s) => s.secret).map(
  (s) => s.key,
);

export const setSecretCommand = (key: string): string =>
  `pulumi config set --secret svc:${key} <value>`;

/** The secret settings given in plain text, of the config `value` and `isSecret` read. */
export function plainSecretSettings(
  value: (configKey: string) => string | undefined,
  isSecret: (configKey: string) => boolean,
): string[] {
  return SECRET_SETTINGS.filter((key) => {
    const given = value(`svc:${key}`);
    return given !== undefined && given !== '' && !isSecret(`svc:${key}`);
  });
}

/** Why a program with these settings in plain text is refused, and what to run instead. */
export function plainSecretRefusal(keys: readonly string[]): string {
  const named = keys.map((key) => `svc:${key}`).join(', ');
  const commands = keys.map((key) => `    ${setSecretCommand(key)}`).join('\n');
  return (
    `${named} ${keys.length > 1 ? 'are' : 'is'} set in plain text in the stack config, so it would be ` +
    `stored unencrypted in the state. Nothing was done. Set it as a secret:\n\n${commands}\n\n` +
    'and consider rotating the key if this config file was shared.'
  );
}
