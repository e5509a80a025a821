import type { Client } from '../client';

/**
 * What a billed kind shows the tools (`pulumi-svc billing` and `audit`, the budget policy pack):
 * how to price a planned change from its properties, how to read what it is billed now, what
 * ending it still owes. A kind declares this once, as `billing` in its registry entry; the tools
 * iterate the registry and name no kind, so a new billed kind needs no edit in any of them.
 */

/** The hours in a month the API prices by: a monthly fee is 730 hours of the hourly one. */
export const HOURS_PER_MONTH = 730;

/** A resource's properties: the outputs a state records, or the inputs a plan checked. */
export type Props = Record<string, unknown>;

/** What properties say the resource costs; a figure not known is absent. */
export interface RecordedCost {
  mode: 'hourly' | 'monthly';
  hourly?: number;
  monthly?: number;
  /** Whose price it is: `account`, or `list: <why the account's was not had>`. */
  source?: string;
}

/** What ending a monthly object still owes: its cycle runs to the anniversary, paid in advance. */
export interface OwedOnCancel {
  billedUntil: string;
  owed: number;
}

/** One object of the account as a list method answers it with the audit's mask. */
export interface ApiObject {
  id: number;
}

/** How `pulumi-svc audit` holds the account's objects of a kind against the states. */
export interface AuditFace<O extends ApiObject = ApiObject> {
  /** The account's list method and the mask it is read with. */
  list: { service: string; method: string; mask: string };
  /** Left out of the audit: neither billed nor owned any more (being reclaimed). */
  ended(object: O): boolean;
  /** How the report names one (a guest: its FQDN). */
  name(object: O): string;
  /** What it is billed now (its billing item), if the API shows it. */
  billed(object: O): { hourly: number; monthly: number } | undefined;
  /** The fields its state recorded that differ from the object now: field: [recorded, now]. */
  drift(recorded: Props, object: O): Record<string, [unknown, unknown]>;
  /**
   * What this provider's tags say of it: `none` (made elsewhere), `unfinished` (ordered by a
   * create that never handed it to a state), `handed` (a completed create handed it to one).
   */
  provenance(object: O): 'none' | 'unfinished' | 'handed';
}

/** A billed kind as the tools see it. */
export interface BillingFace<O extends ApiObject = ApiObject> {
  /** The inputs its price depends on: one of them unknown in a plan leaves it unpriced. */
  pricedBy: readonly string[];
  /** The fields whose change resizes it in place: an upgrade order, billed anew. */
  resizedBy: readonly string[];
  /** The changed fields that replace it (a new order), from the state's outputs to new inputs. */
  replacedBy(olds: Props, news: Props): string[];
  /** What properties (a state's outputs, a plan's checked inputs) say it costs. */
  cost(props: Props | undefined): RecordedCost;
  /** Whether a planned create takes over an object that is billed already (no new order). */
  adopts(inputs: Props | undefined): boolean;
  /** What cancelling object `id` at `now` still owes, when the API shows its cycle. */
  owedOnCancel(client: Client, id: number, now: number): Promise<OwedOnCancel | undefined>;
  audit: AuditFace<O>;
}
