import type { Client } from '../client';

/**
 * What a kind shows the tools (`pulumi-svc billing` and `audit`, the budget policy pack). A billed
 * kind: how to price a planned change from its properties, how to read what it is billed now,
 * what ending it still owes (`billing`). An adoptable kind: how the audit finds its objects no
 * stack owns and names them in the import file (`adoption`). A kind declares each once in its
 * registry entry; the tools iterate the registry and name no kind, so a new kind needs no edit
 * in any of them.
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
  list: AccountList;
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

/** An account's list method and the mask it is read with. */
export interface AccountList {
  service: string;
  method: string;
  mask: string;
}

/** The filters of `pulumi-svc audit` that narrow what is adopted. */
export const ADOPT_FILTERS = ['datacenter', 'hostname', 'domain', 'tag'] as const;
export type AdoptFilter = (typeof ADOPT_FILTERS)[number];

/**
 * What each filter an object's kind can be described by matches: the glob filters a text, `tag`
 * the object's tags.
 */
export interface FilterValues<O> {
  datacenter?(object: O): string;
  hostname?(object: O): string;
  domain?(object: O): string;
  tag?(object: O): readonly string[];
}

/**
 * How `pulumi-svc audit --import-file` finds a kind's objects that no stack owns and writes
 * them into Pulumi's bulk import file. A kind declares it once, as `adoption` in its registry
 * entry; the audit iterates the registry and names no kind.
 */
export interface AdoptionFace<O extends ApiObject = ApiObject, L extends ApiObject = O> {
  /** How the account's objects are listed (a billed kind: its audit's list, read once for both). */
  list: AccountList;
  /** The kind's objects in one item of that list, when they are inside it (a zone's records). */
  objectsIn?(item: L): O[];
  /** Whether one may be adopted when no state holds it (a guest with this provider's tags may not). */
  adoptable(object: O): boolean;
  /**
   * Whether it is an unfinished create's leftover, for a kind with no audit face to report it as
   * an orphan (it bills nothing): its creation token still stands in a text field the create's
   * handover replaces (a security group's description). Never adopted; when no state holds it,
   * the audit lists it on its own.
   */
  unfinished?(object: O): boolean;
  /** Ids of other kinds that a state entry of this kind holds too, by kind (a zone: its records). */
  holds?(outputs: Props): Readonly<Record<string, readonly unknown[]>>;
  /** Its import entry's name as text (`zone-example.com`); the audit makes it an identifier. */
  name(object: O): string;
  /** What a name starts with when its text does not start with a letter (`zone`). */
  nameWord: string;
  /**
   * The object of another kind it is parented to when that one is adopted with it; it follows
   * that parent through filters it cannot be described by (a record follows its zone).
   */
  parent?: { kind: string; id(object: O): number };
  /** The filters that describe it; any other given filter leaves it out. */
  describedBy: FilterValues<O>;
}
