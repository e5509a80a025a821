/**
 * Redaction of credentials (API keys, tokens, passwords, security answers) from any text that
 * may end up in an error message or a log line. The one place that does it: the transport, the
 * client's logger, the providers' log lines and errors all call `redact`.
 *
 * What is replaced by `****`:
 * - every run of MIN_RUN (8) or more consecutive characters of a credential, so a server or a
 *   proxy that echoes a key, cuts it or wraps it in other text still shows none of it;
 * - every whole occurrence of a credential of 4 to 7 characters (shorter ones cannot be told
 *   apart from ordinary text and are left alone);
 * - the same for the URL-encoded and the XML-escaped form of each credential.
 * Matching ignores ASCII case (a proxy page may upper-case what it echoes).
 *
 * Redact the whole text first and cut it afterwards: a cut made before redaction can leave a
 * piece of a credential that is too short to be recognised (see `redactSnippet`).
 */

export const REDACTED = '****';
/** The shortest run of a credential's characters that is redacted wherever it appears. */
export const MIN_RUN = 8;
/** Credentials shorter than this are not redacted at all (they would match ordinary words). */
const MIN_SECRET = 4;

type Secrets = Iterable<string | undefined | null>;

/** ASCII letters lower-cased, every other code unit kept, so indexes stay aligned. */
function fold(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
}

function xmlEscaped(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function variants(secret: string): string[] {
  const out = new Set([secret, xmlEscaped(secret)]);
  try {
    out.add(encodeURIComponent(secret));
  } catch {
    // a lone surrogate has no URL form
  }
  return [...out].map(fold);
}

/** A compiled set of credentials; build one per set and reuse it. */
export class Redactor {
  /** Every MIN_RUN-character window of every long credential (folded). */
  private readonly runs = new Set<string>();
  /** Credentials of MIN_SECRET..MIN_RUN-1 characters, matched whole (folded). */
  private readonly short: string[] = [];

  /**
   * `ordinary`: texts whose own runs are never taken for a piece of a credential (the secret scan
   * passes words such as `password`, which a weak demo password like `demo-password` contains).
   */
  constructor(secrets: Secrets, ordinary: readonly string[] = []) {
    for (const secret of secrets) {
      if (typeof secret !== 'string' || secret.length < MIN_SECRET) continue;
      for (const form of variants(secret)) {
        if (form.length < MIN_RUN) {
          if (!this.short.includes(form)) this.short.push(form);
          continue;
        }
        for (let i = 0; i + MIN_RUN <= form.length; i++) this.runs.add(form.slice(i, i + MIN_RUN));
      }
    }
    for (const text of ordinary.map(fold)) {
      for (let i = 0; i + MIN_RUN <= text.length; i++) this.runs.delete(text.slice(i, i + MIN_RUN));
    }
  }

  /** Whether there is anything to redact at all. */
  get empty(): boolean {
    return this.runs.size === 0 && this.short.length === 0;
  }

  redact(text: string): string {
    if (this.empty || text.length < MIN_SECRET) return text;
    const folded = fold(text);
    let covered: Uint8Array | undefined;
    const cover = (from: number, to: number) => {
      covered ??= new Uint8Array(text.length);
      covered.fill(1, from, to);
    };
    if (this.runs.size > 0) {
      for (let i = 0; i + MIN_RUN <= folded.length; i++) {
        if (this.runs.has(folded.slice(i, i + MIN_RUN))) cover(i, i + MIN_RUN);
      }
    }
    for (const secret of this.short) {
      for (let at = folded.indexOf(secret); at !== -1; at = folded.indexOf(secret, at + 1)) {
        cover(at, at + secret.length);
      }
    }
    if (!covered) return text;
    let out = '';
    let i = 0;
    while (i < text.length) {
      if (covered[i]) {
        out += REDACTED;
        while (i < text.length && covered[i]) i++;
      } else {
        const start = i;
        while (i < text.length && !covered[i]) i++;
        out += text.slice(start, i);
      }
    }
    return out;
  }
}

/** Compiled redactors of the secret lists the transport passes around (they are reused per call). */
const compiled = new WeakMap<readonly unknown[], Redactor>();

function redactorFor(secrets: Secrets | Redactor): Redactor {
  if (secrets instanceof Redactor) return secrets;
  if (!Array.isArray(secrets)) return new Redactor(secrets);
  let redactor = compiled.get(secrets);
  if (!redactor) {
    redactor = new Redactor(secrets);
    compiled.set(secrets, redactor);
  }
  return redactor;
}

/** `text` with every credential in `secrets` (and every run of 8+ characters of one) replaced. */
export function redact(text: string, secrets: Secrets | Redactor): string {
  return redactorFor(secrets).redact(text);
}

/** A fault code with credentials redacted; a code that needs no change keeps its type. */
export function redactCode<T extends string | number>(
  code: T,
  secrets: Secrets | Redactor,
): T | string {
  const text = String(code);
  const clean = redact(text, secrets);
  return clean === text ? code : clean;
}

/**
 * A short one-line excerpt of a possibly huge text (an HTML error page): the first `windowChars`
 * characters are redacted, whitespace is collapsed, the result redacted again and only then cut
 * to `maxChars`.
 */
export function redactSnippet(
  text: string,
  secrets: Secrets | Redactor,
  maxChars: number,
  windowChars = 64 * 1024,
): string {
  const redactor = redactorFor(secrets);
  const window = redactor.redact(text.length > windowChars ? text.slice(0, windowChars) : text);
  const oneLine = redactor.redact(window.replace(/\s+/g, ' ').trim());
  return oneLine.length > maxChars ? `${oneLine.slice(0, maxChars)}...` : oneLine;
}
