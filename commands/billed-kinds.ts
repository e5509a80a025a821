import { KINDS, kindSpec, type KindSpec, type ResourceKind } from '../provider/kinds';
import type { BillingFace } from '../provider/kinds/faces';
import { kindOf } from '../provider/kinds/tokens';

/**
 * The billed kinds by name: each kind of the registry that declares a billing face. The billing
 * report, the audit and the budget pack take this (a test passes its own) and name no kind.
 */
export type BillingFaces = Readonly<Record<string, BillingFace>>;

/** The faces of one sort (`billing`, `adoption`) that the registry's kinds declare, by kind. */
export function registryFaces<S extends 'billing' | 'adoption'>(
  sort: S,
): Readonly<Record<string, NonNullable<KindSpec[S]>>> {
  return Object.fromEntries(
    Object.keys(KINDS).flatMap((kind) => {
      const face = kindSpec(kind as ResourceKind)[sort];
      return face ? [[kind, face]] : [];
    }),
  );
}

export const BILLING_FACES: BillingFaces = registryFaces('billing');

/** The billing face of `kind`, if it is billed. */
export const faceOf = (kind: string, faces: BillingFaces): BillingFace | undefined =>
  Object.hasOwn(faces, kind) ? faces[kind] : undefined;

/** The billed kind a type token of either front door names, with its face. */
export function billedKind(
  type: string | undefined,
  faces: BillingFaces,
): { kind: string; face: BillingFace } | undefined {
  const kind = kindOf(type ?? '');
  const face = kind === undefined ? undefined : faceOf(kind, faces);
  return kind !== undefined && face ? { kind, face } : undefined;
}
