import { isNotFound } from '../client/errors';

/** The call's result, or undefined when the API says the object does not exist. */
export async function unlessNotFound<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
