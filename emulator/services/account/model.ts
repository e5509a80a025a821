/**
 * Accounts, their users and the users' portal-login tokens: the records, their tables, and
 * creating an account with its first user (for seeds and for `POST /_emulator/accounts`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { table, type RecordsOf, type Store, type WriteOp } from '../../store';
import type { Discounts } from './discounts';

export interface AccountRec {
  id: number;
  companyName: string;
  firstName: string;
  lastName: string;
  email: string;
  city: string;
  country: string;
  createDate: number;
  /** Negotiated prices: percent off the list price by item category (./discounts.ts). */
  discounts?: Discounts;
}

export interface SecurityQuestionRec {
  id: number;
  question: string;
  answer: string;
}

export interface UserRec {
  id: number;
  accountId: number;
  username: string;
  apiKey: string;
  password?: string;
  securityQuestions?: SecurityQuestionRec[];
  firstName: string;
  lastName: string;
  email: string;
  createDate: number;
  isMasterUser: boolean;
}

export interface TokenRec {
  id: number;
  userId: number;
  hash: string;
  createDate: number;
}

export const tables = {
  accounts: table<AccountRec>(318001),
  users: table<UserRec>(7001, ['accountId']),
  tokens: table<TokenRec>(1, ['userId']),
};

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

export interface AccountCredentials {
  accountId: number;
  companyName: string;
  userId: number;
  username: string;
  apiKey: string;
  password?: string;
  securityQuestion?: { id: number; question: string; answer: string };
}

export interface NewUser {
  username: string;
  /** Default: 64 random hex characters. */
  apiKey?: string;
  password?: string;
  securityQuestions?: SecurityQuestionRec[];
  firstName?: string;
  lastName?: string;
}

/** A deterministic 64-hex-character key from a phrase (seeded demo credentials). */
export const derivedKey = (phrase: string) =>
  createHash('sha256').update(`svc-emulator:${phrase}`).digest('hex');

export const randomKey = () => randomBytes(32).toString('hex');

export function usernameTaken(store: Store, username: string): boolean {
  return store.all('users').some((u) => u.username === username);
}

export function newUserOps(
  store: Store,
  accountId: number,
  spec: NewUser,
  now: number,
  master: boolean,
): { user: UserRec; ops: WriteOp[] } {
  const user: UserRec = {
    id: store.nextId('users'),
    accountId,
    username: spec.username,
    apiKey: spec.apiKey ?? randomKey(),
    password: spec.password,
    securityQuestions: spec.securityQuestions,
    firstName: spec.firstName ?? spec.username,
    lastName: spec.lastName ?? 'User',
    email: `${spec.username.replace(/[^A-Za-z0-9._-]/g, '')}@example.com`,
    createDate: now,
    isMasterUser: master,
  };
  return { user, ops: [{ put: 'users', record: user }] };
}

export function newAccountOps(
  store: Store,
  spec: { companyName: string; city?: string; country?: string; user: NewUser },
  now: number,
): { account: AccountRec; credentials: AccountCredentials; ops: WriteOp[] } {
  const account: AccountRec = {
    id: store.nextId('accounts'),
    companyName: spec.companyName,
    firstName: spec.user.firstName ?? spec.user.username,
    lastName: spec.user.lastName ?? 'User',
    email: `billing@${
      spec.companyName
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'account'
    }.example.com`,
    city: spec.city ?? 'Dallas',
    country: spec.country ?? 'US',
    createDate: now,
  };
  const { user, ops } = newUserOps(store, account.id, spec.user, now, true);
  return {
    account,
    credentials: credentialsOf(account, user),
    ops: [{ put: 'accounts', record: account }, ...ops],
  };
}

export function credentialsOf(account: AccountRec, user: UserRec): AccountCredentials {
  const q = user.securityQuestions?.[0];
  return {
    accountId: account.id,
    companyName: account.companyName,
    userId: user.id,
    username: user.username,
    apiKey: user.apiKey,
    password: user.password,
    securityQuestion: q && { id: q.id, question: q.question, answer: q.answer },
  };
}
