import { claimSent } from './claims';
import { freeWriteWindowMs } from './connection';
import { OWNED_TAG, declaredNote, isNoteMarked, markedNote } from './creation-token';
import { requireEngine } from './engine-watch';
import { lookFor, writeIdempotent } from './exactly-once';

/**
 * The handed mark of an object ordered with a creation token: the last write of a create that
 * completed, right before the engine records the id. An object carrying the token without it is
 * an unfinished create's (a killed CLI, a Ctrl-C, a create whose deadline ran out, a lost answer),
 * which the next create of the resource takes over; one with it was handed to a state (the
 * resource's current object during a replace, or one a state let go), which no create takes.
 *
 * The mark lives where the kind keeps its token, or beside it: a tag (`OWNED_TAG`) on a guest or
 * a server, whose token is a tag; the last line of the note of a volume, a VLAN or a dedicated
 * host, whose token the API keeps where nothing can write it again (a volume's order container
 * identifier, a VLAN's billing item, a host's tags). The note's read-back leaves the line out,
 * and every note edit keeps it.
 *
 * The write is a claim (claims.ts): registered before it is sent, it is taken back when the engine
 * never saw the create's answer, so the object goes back to an unfinished create's.
 */
export interface HandedMark {
  /** What carries it, for messages (`volume 12`). */
  what: string;
  /** Whether the object carries it now, read afresh. */
  isOn(): Promise<boolean>;
  put(): Promise<void>;
  takeOff(): Promise<void>;
}

/** Marks the object handed to a state (see the module comment); nothing when it is already. */
export async function handOver(mark: HandedMark): Promise<void> {
  if (await mark.isOn()) return;
  // Asked before the claim is registered (the write gate asks again): an engine already gone
  // stops the provider with no claim of this create to take back.
  await requireEngine();
  claimSent({ what: mark.what, release: () => takeBack(mark) });
  await writeMark(mark);
}

/**
 * Marks an object a state already holds (an update of one whose create failed, or that was made
 * before the mark): no claim, as the state keeps it whatever becomes of this call.
 */
export async function putMark(mark: HandedMark): Promise<void> {
  if (!(await mark.isOn())) await writeMark(mark);
}

const writeMark = (mark: HandedMark) =>
  writeIdempotent({
    what: `${mark.what}: marking it handed to the state`,
    write: mark.put,
    done: mark.isOn,
    windowMs: freeWriteWindowMs(),
  });

/**
 * Takes the mark back from an object whose create never answered its engine. The claim may still
 * be on its way (a slow commit), so the mark is waited for as long as the claim itself would have
 * been looked for; one that never shows was never made.
 */
export async function takeBack(mark: HandedMark, windowMs = freeWriteWindowMs()): Promise<boolean> {
  const { found } = await lookFor(async () => ((await mark.isOn()) ? true : undefined), windowMs);
  if (!found) return false;
  await writeIdempotent({
    what: `${mark.what}: taking back its handed mark`,
    write: mark.takeOff,
    done: async () => !(await mark.isOn()),
    windowMs,
  });
  return true;
}

/** The mark as a tag among the object's tags, the provider's others (its token) kept. */
export function tagMark(
  what: string,
  tagsNow: () => Promise<string[]>,
  setTags: (tags: string[]) => Promise<void>,
): HandedMark {
  return {
    what,
    isOn: async () => (await tagsNow()).includes(OWNED_TAG),
    put: async () => setTags([...(await tagsNow()).filter((t) => t !== OWNED_TAG), OWNED_TAG]),
    takeOff: async () => setTags((await tagsNow()).filter((t) => t !== OWNED_TAG)),
  };
}

/**
 * The mark as the note's last line. `setNote` writes the whole note: the handover writes the
 * declared one with the mark, so a create's note and its mark are one write.
 */
export function noteMark(
  what: string,
  noteNow: () => Promise<string | undefined>,
  setNote: (note: string) => Promise<void>,
  declared: string | undefined,
): HandedMark {
  return {
    what,
    isOn: async () => {
      const note = await noteNow();
      return isNoteMarked(note) && declaredNote(note) === (declared ?? '');
    },
    put: () => setNote(markedNote(declared)),
    takeOff: async () => setNote(declaredNote(await noteNow())),
  };
}

/**
 * The mark of an object with no place of its own for a token (a security group, a placement
 * group): one of its text fields holds the token while the create runs, and the handover writes
 * the declared value over it. Such an object carries the token only while it is unfinished, so
 * the mark is the token's absence; a gone object carries no mark.
 */
export function tokenFieldMark(
  what: string,
  token: string,
  fieldNow: () => Promise<string | undefined | null>,
  setField: (value: string) => Promise<void>,
  declared: string,
): HandedMark {
  return {
    what,
    isOn: async () => {
      const value = await fieldNow();
      return value !== null && (value ?? '') !== token;
    },
    put: () => setField(declared),
    takeOff: () => setField(token),
  };
}
