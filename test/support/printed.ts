/** The `[svc]` lines a provider call prints (a dynamic provider's stdout). */
export async function printed<T>(run: () => Promise<T>): Promise<{ result: T; lines: string }> {
  const original = console.log;
  let lines = '';
  console.log = (...args: unknown[]) => void (lines += `${args.join(' ')}\n`);
  try {
    return { result: await run(), lines };
  } finally {
    console.log = original;
  }
}
