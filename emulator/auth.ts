/**
 * Who is calling: API-key authentication (`authenticate: {username, apiKey}`, or HTTP Basic),
 * portal-login tokens (`{complexType: 'PortalLoginToken', userId, authToken}`) issued by
 * `User_Customer.getPortalLoginToken`, with security questions enforced where a user has them.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiFault, FaultCodes, publicFault } from './errors';
import type { Store, Tables } from './store';
import type { Authenticate } from './wire';

/** A user record (services/account/model.ts declares it; read through the store's tables). */
type UserRec = Tables['users'];

export const authFaults = {
  missing: () =>
    new ApiFault(
      FaultCodes.notAuthorized,
      'No authentication was given: send an authenticate header with username and apiKey.',
    ),
  badKey: () => publicFault('Invalid API token.'),
  badToken: () =>
    new ApiFault(
      FaultCodes.invalidLegacyToken,
      'Invalid legacy token: the token is unknown or was issued for another user.',
    ),
  badLogin: () => publicFault('Invalid username/password'),
};

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function findUser(store: Store, username: string): UserRec | undefined {
  return store.all('users').find((u) => u.username === username);
}

/** The user behind the API headers (or HTTP Basic credentials); faults when they do not check out. */
export function authenticate(
  store: Store,
  auth: Authenticate | undefined,
  basic: string | undefined,
): UserRec {
  if (auth?.kind === 'token') {
    const user = store.get('users', auth.userId);
    const valid =
      user !== undefined &&
      store.by('tokens', 'userId', user.id).some((t) => sameSecret(t.hash, auth.authToken));
    if (!user || !valid) throw authFaults.badToken();
    return user;
  }
  const creds = auth ?? parseBasic(basic);
  if (!creds) throw authFaults.missing();
  // Username `apikey` (IBM Cloud style) names no user: the key alone identifies one.
  const user =
    creds.username === 'apikey'
      ? store.all('users').find((u) => sameSecret(u.apiKey, creds.apiKey))
      : findUser(store, creds.username);
  if (!user || !sameSecret(user.apiKey, creds.apiKey)) throw authFaults.badKey();
  return user;
}

function parseBasic(header: string | undefined): { username: string; apiKey: string } | undefined {
  const m = header && /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: text.slice(0, colon), apiKey: text.slice(colon + 1) };
}

/**
 * Checks a password login; the caller persists the returned token. A user with security
 * questions must name one of them and answer it (case and surrounding spaces ignored).
 */
export function checkPasswordLogin(
  store: Store,
  username: unknown,
  password: unknown,
  questionId: unknown,
  answer: unknown,
): UserRec {
  if (typeof username !== 'string' || typeof password !== 'string') throw authFaults.badLogin();
  const user = findUser(store, username);
  if (!user?.password || !sameSecret(user.password, password)) throw authFaults.badLogin();
  const questions = user.securityQuestions ?? [];
  if (questions.length > 0) {
    if (
      questionId === null ||
      questionId === undefined ||
      answer === null ||
      answer === undefined
    ) {
      throw publicFault(
        `A security question answer is required for this user: pass securityQuestionId (one of ${questions
          .map((q) => q.id)
          .join(', ')}) and its answer.`,
      );
    }
    const id = typeof questionId === 'string' ? Number(questionId) : questionId;
    const question = questions.find((q) => q.id === id);
    if (
      !question ||
      typeof answer !== 'string' ||
      !sameSecret(question.answer.trim().toLowerCase(), answer.trim().toLowerCase())
    ) {
      throw publicFault('Invalid security question answer.');
    }
  }
  return user;
}

export const newTokenHash = () => randomBytes(32).toString('hex');
