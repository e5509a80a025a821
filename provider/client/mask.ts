/**
 * Object-mask formatting (reference client, `_format_object_mask`): a bare property list is
 * wrapped as `mask[...]`; a mask that already names its root (`mask[...]`, `mask.x`,
 * `mask(Type)...`, `filteredMask[...]`, a leading `[...]`, or just `mask`) is sent unchanged.
 * Unlike the reference's plain prefix test, a first property that merely starts with the
 * letters "mask" (`maskedValue`) is still wrapped.
 */

const ROOTED = /^(?:(?:mask|filteredMask)\s*[[.(]|mask$|\[)/;

export function formatMask(mask: string): string {
  const trimmed = mask.trim();
  if (trimmed === '') throw new TypeError('mask must not be empty');
  return ROOTED.test(trimmed) ? trimmed : `mask[${trimmed}]`;
}
