/** Keeping what the input puts into error messages short, whatever the input. */

/** `text` cut to 40 characters (with an ellipsis). */
export function clip(text: string, max = 40): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}

/** `text` cut to 40 characters, in double quotes. */
export function quote(text: string): string {
  return JSON.stringify(clip(text));
}
