import * as pulumi from '@pulumi/pulumi';

export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** The Output form of a lookup: takes Inputs, calls the Promise form once they are known. */
export function outputForm<A extends object, R>(lookup: (args: A) => Promise<R>) {
  return (args?: InputsOf<A>): pulumi.Output<R> =>
    pulumi.output((args ?? {}) as pulumi.Input<A>).apply((plain) => lookup(plain as A));
}
