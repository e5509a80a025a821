import { builtinModules } from 'node:module';

/**
 * Built-in modules whose first load prints a warning the user did not cause, each with that
 * warning's message. `pulumi.dynamic.Resource` serializes its provider with @pulumi/pulumi's
 * closure serializer, which requires every entry of `builtinModules` (to name a captured module;
 * `getBuiltInModules` in runtime/closure/createClosure.js, 3.248 to 3.276 alike) but the ones it
 * knows warn (punycode, sys, wasi). Node.js 26 added `node:ffi`, whose load prints
 * `ExperimentalWarning: FFI is an experimental feature` into every `pulumi up` of a program on
 * the dynamic resources.
 */
const WARN_ON_LOAD: Record<string, { type: string; message: RegExp }> = {
  'node:ffi': { type: 'ExperimentalWarning', message: /^FFI is an experimental feature/ },
};

let loaded = false;

/**
 * Loads those modules before the serializer does, dropping exactly their load's warning: Node.js
 * warns once per feature, so the serializer's own `require` then prints nothing. Other warnings
 * pass. (A module the program already loaded is not loaded again: its warning was the program's.
 * One the program loads after this stays silent, as Node.js's second load of it would.)
 */
export function loadSerializerBuiltinsQuietly(): void {
  if (loaded) return;
  loaded = true;
  for (const [name, warning] of Object.entries(WARN_ON_LOAD)) {
    if (!builtinModules.includes(name)) continue;
    const emit = process.emitWarning;
    process.emitWarning = function (this: NodeJS.Process, ...args: Parameters<typeof emit>) {
      if (!isWarning(args, warning)) emit.apply(this, args);
    } as typeof emit;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(name);
    } finally {
      process.emitWarning = emit;
    }
  }
}

/** True when `process.emitWarning(...args)` would print `warning`. */
function isWarning(
  [message, options]: Parameters<typeof process.emitWarning>,
  warning: { type: string; message: RegExp },
): boolean {
  const type =
    typeof options === 'string' ? options : message instanceof Error ? message.name : options?.type;
  const text = message instanceof Error ? message.message : message;
  return type === warning.type && warning.message.test(text);
}
