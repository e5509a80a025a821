import type { Fields, InputsOf } from './fields';

/**
 * What some kinds do beyond the lifecycle, declared by the kind (kinds/index.ts) and used by any
 * front door that can: no door names a kind. A kind whose waits can be cut short says what a
 * cancelled operation answers. (A kind that waits long bounds its waits by the request's deadline,
 * operation.ts; one that marks what it made as handed to a state registers that claim as it
 * writes it: claims.ts.)
 */

/** What a front door knows of an operation the engine cancels while it still runs. */
export interface OperationProgress {
  /** Ids of the objects its writes made (a create's answer) or wrote to. */
  readonly touched: ReadonlySet<number>;
  /** Writes it has sent. */
  readonly writes: number;
}

/**
 * The answer of an operation cancelled while it still waits, given at once instead of its own;
 * undefined: the operation runs to its end (it can write nothing more).
 */
export type EarlyAnswer = (progress: OperationProgress) => (() => Promise<never>) | undefined;

export interface KindCapabilities<F extends Fields = Fields> {
  /** What a create, update or delete cancelled while it still waits answers. */
  cancel?: {
    create?(inputs: InputsOf<F>, started: number): EarlyAnswer;
    update?(id: string): EarlyAnswer;
    delete?(id: string): EarlyAnswer;
  };
}
