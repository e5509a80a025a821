/**
 * Which API methods change something: the one table both the retry policy (a write is never
 * repeated after an ambiguous failure) and the plugin's write gate (nothing is written for a
 * cancelled operation or an engine that is gone) decide by. A method reads only when its name
 * starts with a read verb; anything else, a method never heard of included, counts as a write:
 * wrongly taking a read for a write costs a retry or an engine check, the other way round could
 * order a second server.
 */
const READ_VERBS = ['get', 'find', 'list', 'verify', 'generate', 'is', 'count'];

/** `getObject` starts with the word `get`; `isolate` does not start with the word `is`. */
const startsWithWord = (method: string, word: string) =>
  method.startsWith(word) && !/^[a-z]/.test(method.charAt(word.length));

export function isWrite(method: string): boolean {
  return !READ_VERBS.some((word) => startsWithWord(method, word));
}

/** Reads and other side-effect-free methods: safe to send again after any failure. */
export const isSafeToRepeat = (method: string): boolean => !isWrite(method);
