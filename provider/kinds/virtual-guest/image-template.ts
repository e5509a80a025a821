import type { Connection } from '../../framework/connection';
import type { Failures } from '../../framework/failures';
import { isKnown } from '../../framework/unknown';
import { ImageManager, type ImageTemplate } from '../../managers';
import { choices } from './placement';

/**
 * `imageTemplateId`: a guest made from an image template (the order's
 * `blockDeviceTemplateGroup.globalIdentifier`), given instead of `operatingSystemReferenceCode`
 * (the OS is the template's; as an output, the OS code shows what the guest runs). `check` finds
 * the template among the account's own and the public ones, captured, and available in the
 * datacenter the guest is ordered in (each of `datacenters`), before anything is ordered.
 */

const MASK = 'mask[id,name,globalIdentifier,status.keyName,datacenters[id,name]]';

const given = (value: unknown) => value !== undefined && value !== null;

/** Exactly one of the OS code and the image template (no API call). */
export function checkImageRules(
  inputs: { operatingSystemReferenceCode?: unknown; imageTemplateId?: unknown },
  failures: Failures,
): void {
  const os = given(inputs.operatingSystemReferenceCode);
  const image = given(inputs.imageTemplateId);
  if (os && image)
    failures.add(
      'imageTemplateId',
      'give operatingSystemReferenceCode or imageTemplateId, not both: a guest made from an image template runs the template’s operating system',
    );
  else if (!os && !image)
    failures.add(
      'operatingSystemReferenceCode',
      'operatingSystemReferenceCode (an operating system code such as UBUNTU_LATEST) or imageTemplateId (an image template’s global identifier) is required',
    );
}

/** The account's own templates and the public ones (two listings). */
async function visibleTemplates(c: Connection): Promise<ImageTemplate[]> {
  const images = c.use(ImageManager);
  const [own, shared] = await Promise.all([
    images.listPrivate({}, MASK),
    images.listPublic({}, MASK),
  ]);
  return [...own, ...shared];
}

/** The template exists for this account, is captured, and is where the guest is ordered. */
export async function checkImageTemplate(
  c: Connection,
  inputs: { imageTemplateId?: unknown; datacenter?: unknown; datacenters?: unknown },
  failures: Failures,
): Promise<void> {
  const gid = inputs.imageTemplateId;
  if (typeof gid !== 'string' || !isKnown(gid)) return;
  const field = 'imageTemplateId';
  const template = (await visibleTemplates(c)).find((t) => t.globalIdentifier === gid);
  if (!template) {
    failures.add(
      field,
      `${field}: there is no image template ${gid} among this account's and the public ones`,
    );
    return;
  }
  const named = `image template ${template.id} (${JSON.stringify(template.name ?? '')})`;
  const status = template.status?.keyName;
  if (status !== undefined && status !== 'ACTIVE')
    failures.add(field, `${field}: ${named} is not ready (${status}): order from it once it is`);
  const at = (template.datacenters ?? []).flatMap((d) => (d.name ? [d.name] : []));
  const missing = choices(inputs).filter((dc) => isKnown(dc) && !at.includes(dc));
  if (missing.length > 0)
    failures.add(
      field,
      `${field}: ${named} is not available in ${missing.join(', ')} (it is in ${at.join(', ') || 'no datacenter'}): add the datacenter to the template (setAvailableLocations) or order the guest where it is`,
    );
}
