/**
 * The fixed credentials the tests use against loopback servers. No side effects: the secret scan
 * (scripts/check-no-secrets.ts) imports this list and fails on any run of 8 or more characters
 * of any of them in the test logs, so none of them may contain ordinary words of 8+ characters.
 */

/** A 64-hex-character key, like the real ones, that must never appear in messages. */
export const API_KEY = 'f3c1a9d2e8b7f6a5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1';
export const USERNAME = 'alice';
/** A password for login tests. */
export const PASSWORD = 'c0rrect h0rse b4ttery st4ple';
/** A security-question answer for login tests. */
export const SECURITY_ANSWER = 'Flu4fy_Th3_C4t';
/** A portal login token for TokenAuth tests. */
export const LOGIN_TOKEN = '9e8d7c6b5a49382716059e8d7c6b5a49382716059e8d7c6b5a4938271605abcd';

export const TEST_CREDENTIALS: readonly string[] = [
  API_KEY,
  PASSWORD,
  SECURITY_ANSWER,
  LOGIN_TOKEN,
];
