import * as pulumi from '@pulumi/pulumi';
import type { Client } from '../provider/client';
import { programClient } from './connection';

/**
 * The two forms of a lookup in a program. Dynamic providers have no Invoke, so a lookup is a plain
 * function that calls the API from the program process (during preview too).
 */

/** The Promise form: the lookup called with the program's client (connection.ts). */
export const inProgram =
  <P extends unknown[], R>(lookup: (client: Client, ...args: P) => Promise<R>) =>
  async (...args: P): Promise<R> =>
    // async: a refused configuration (a plain-text key) rejects, as every lookup's errors do
    lookup(programClient(), ...args);

export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** The Output form: takes Inputs, calls the Promise form once they are known. */
export function outputForm<A extends object, R>(lookup: (args: A) => Promise<R>) {
  return (args?: InputsOf<A>): pulumi.Output<R> =>
    pulumi.output((args ?? {}) as pulumi.Input<A>).apply((plain) => lookup(plain as A));
}

type Call = (client: Client, args: never) => Promise<unknown>;
type ArgsOfCall<C> = C extends (client: Client, args: infer A) => Promise<unknown> ? A : never;
type AnswerOf<C> = C extends (client: Client, args: never) => Promise<infer R> ? R : never;

/** Each lookup's Promise form (`getX`) and Output form (`getXOutput`). */
export type ProgramForms<L extends Record<string, { call: Call }>> = {
  [K in keyof L]: (args?: ArgsOfCall<L[K]['call']>) => Promise<AnswerOf<L[K]['call']>>;
} & {
  [K in keyof L & string as `${K}Output`]: (
    args?: InputsOf<ArgsOfCall<L[K]['call']>>,
  ) => pulumi.Output<AnswerOf<L[K]['call']>>;
};

/** The two forms of every lookup of a registry (provider/lookups/define.ts), by name. */
export function programForms<L extends Record<string, { call: Call }>>(
  lookups: L,
): ProgramForms<L> {
  return Object.fromEntries(
    Object.entries(lookups).flatMap(([name, { call }]) => {
      const promised = inProgram(call as (client: Client, args?: object) => Promise<unknown>);
      return [
        [name, promised],
        [`${name}Output`, outputForm(promised)],
      ];
    }),
  ) as ProgramForms<L>;
}
