import type { Props, RecordedCost } from '../provider/kinds/faces';
import { BILLING_FACES, billedKind, type BillingFaces } from './billed-kinds';

/**
 * One billing-affecting change in a preview: an object of a billed kind bought, replaced,
 * upgraded or cancelled, or an existing (already billed) one taken over by a create, which
 * changes no bill.
 */
export interface BillingChange {
  op: 'create' | 'adopt' | 'replace' | 'upgrade' | 'delete';
  /** The billed kind (`VirtualGuest`). */
  kind: string;
  name: string;
  mode: RecordedCost['mode'];
  /** The old object's billing, when a replace changes it. */
  oldMode?: RecordedCost['mode'];
  oldHourly?: number;
  newHourly?: number;
  oldMonthly?: number;
  newMonthly?: number;
  /** Whose price the new cost is: `account`, or `list: <reason>` (estimatedCostSource). */
  newSource?: string;
  /** The fields whose change forces a new object (replace) or resizes it in place (upgrade). */
  reasons: string[];
  /** The id of the object the state holds (an upgrade, replace or delete). */
  id?: string;
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  op: string;
  urn: string;
  oldState?: { type?: string; id?: string; outputs?: Props };
  newState?: { type?: string; inputs?: Props };
  replaceReasons?: string[];
  diffReasons?: string[];
}

/** What `pulumi preview --json` prints. */
export interface PreviewJson {
  steps?: PreviewStep[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The resource name of a URN. */
export const urnName = (urn: string) => urn.split('::').pop() ?? urn;
const stepName = (step: PreviewStep) => urnName(step.urn);

/**
 * A change from `olds` (the outputs in the state; none for a create) to `news` (the checked
 * inputs; none for a delete), with the costs each side has.
 */
function change(
  cost: (props: Props | undefined) => RecordedCost,
  base: Pick<BillingChange, 'op' | 'kind' | 'name'>,
  olds: Props | undefined,
  news: Props | undefined,
  reasons: string[] = [],
): BillingChange {
  const [old, now] = [cost(olds), cost(news)];
  const mode = news ? now.mode : old.mode;
  return {
    ...base,
    mode,
    ...(olds && news && old.mode !== now.mode ? { oldMode: old.mode } : {}),
    oldHourly: olds && old.hourly,
    newHourly: news && now.hourly,
    oldMonthly: olds && old.monthly,
    newMonthly: news && now.monthly,
    newSource: news && now.source,
    reasons,
  };
}

/**
 * The billing change a preview step announces, if it is one (a step of a billed kind of either
 * front door), with the object's id if it has one.
 */
export function billingChange(
  step: PreviewStep,
  faces: BillingFaces = BILLING_FACES,
): BillingChange | undefined {
  const billed = billedKind((step.newState ?? step.oldState)?.type, faces);
  if (!billed) return undefined;
  const { kind, face } = billed;
  const name = stepName(step);
  const olds = step.oldState?.outputs;
  const news = step.newState?.inputs;
  const of = (op: BillingChange['op'], o: Props | undefined, n: Props | undefined, r?: string[]) =>
    change(face.cost, { op, kind, name }, o, n, r);
  let found: BillingChange | undefined;
  switch (step.op) {
    case 'create':
      found = face.adopts(news) ? of('adopt', news, news) : of('create', undefined, news);
      break;
    case 'replace':
      found = of('replace', olds, news, step.replaceReasons ?? step.diffReasons ?? []);
      break;
    case 'update': {
      // A size the program leaves out follows the object (a guest's flavor gives its cores).
      const resized = face.resizedBy.filter(
        (f) => news && news[f] !== undefined && !same(olds?.[f], news[f]),
      );
      found = resized.length > 0 ? of('upgrade', olds, news, resized) : undefined;
      break;
    }
    case 'delete':
      found = of('delete', olds, undefined);
      break;
    default:
    // create-replacement and delete-replaced are the two halves of a replace, counted once above.
  }
  const id = step.oldState?.id;
  return found && id ? { ...found, id } : found;
}

/** The billing-affecting changes of a plan. */
export function billingChanges(
  preview: PreviewJson,
  faces: BillingFaces = BILLING_FACES,
): BillingChange[] {
  return (preview.steps ?? []).flatMap((step) => billingChange(step, faces) ?? []);
}
