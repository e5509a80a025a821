import { billingMode } from '../provider/managers';
import { kindOf } from '../provider/kinds/tokens';

/**
 * One billing-affecting change in a preview: a guest bought, replaced, upgraded or cancelled, or
 * an existing (already billed) guest taken over by a create, which changes no bill.
 */
export interface BillingChange {
  op: 'create' | 'adopt' | 'replace' | 'upgrade' | 'delete';
  name: string;
  mode: ReturnType<typeof billingMode>;
  /** The old guest's billing, when a replace changes it. */
  oldMode?: ReturnType<typeof billingMode>;
  oldHourly?: number;
  newHourly?: number;
  oldMonthly?: number;
  newMonthly?: number;
  /** Whose price the new cost is: `account`, or `list: <reason>` (estimatedCostSource). */
  newSource?: string;
  /** The fields whose change forces a new guest (replace) or resizes it in place (upgrade). */
  reasons: string[];
  /** The id of the guest the state holds (an upgrade, replace or delete). */
  id?: string;
}

type Props = Record<string, unknown> | undefined;

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

/** The size of a guest: an update of these is an upgrade order, billed differently. */
const SIZE_FIELDS = ['startCpus', 'maxMemory', 'networkSpeed', 'disks'];

const cost = (props: Props) =>
  typeof props?.estimatedHourlyCost === 'number' ? props.estimatedHourlyCost : undefined;
const monthly = (props: Props) =>
  typeof props?.estimatedMonthlyCost === 'number' ? props.estimatedMonthlyCost : undefined;
const source = (props: Props) =>
  typeof props?.estimatedCostSource === 'string' ? props.estimatedCostSource : undefined;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const mode = (props: Props) => billingMode(props?.hourlyBillingFlag);

/**
 * A change from `olds` (the outputs in the state; none for a create) to `news` (the checked
 * inputs; none for a delete), with the costs each side has.
 */
function change(
  op: BillingChange['op'],
  name: string,
  olds: Props,
  news: Props,
  reasons: string[] = [],
): BillingChange {
  return {
    op,
    name,
    mode: mode(news ?? olds),
    ...(olds && news && mode(olds) !== mode(news) ? { oldMode: mode(olds) } : {}),
    oldHourly: cost(olds),
    newHourly: cost(news),
    oldMonthly: monthly(olds),
    newMonthly: monthly(news),
    newSource: source(news),
    reasons,
  };
}

/** The billing change a preview step announces, if it is one, with the guest's id if it has one. */
export function billingChange(step: PreviewStep): BillingChange | undefined {
  // A guest of either front door: the dynamic classes or the provider plugin.
  if (kindOf((step.newState ?? step.oldState)?.type ?? '') !== 'VirtualGuest') return undefined;
  const found = guestChange(step);
  const id = step.oldState?.id;
  return found && id ? { ...found, id } : found;
}

function guestChange(step: PreviewStep): BillingChange | undefined {
  const name = step.urn.split('::').pop() ?? step.urn;
  const olds = step.oldState?.outputs;
  const news = step.newState?.inputs;
  switch (step.op) {
    case 'create':
      // `adopts`: check found the existing guest this create takes over (see the field table).
      return news?.adopts === undefined
        ? change('create', name, undefined, news)
        : change('adopt', name, news, news);
    case 'replace':
      return change('replace', name, olds, news, step.replaceReasons ?? step.diffReasons ?? []);
    case 'update': {
      const resized = SIZE_FIELDS.filter((f) => news && !same(olds?.[f], news[f]));
      return resized.length > 0 ? change('upgrade', name, olds, news, resized) : undefined;
    }
    case 'delete':
      return change('delete', name, olds, undefined);
    default:
      // create-replacement and delete-replaced are the two halves of a replace, counted once above.
      return undefined;
  }
}

/** The billing-affecting changes of a plan. */
export function billingChanges(preview: PreviewJson): BillingChange[] {
  return (preview.steps ?? []).flatMap((step) => billingChange(step) ?? []);
}
