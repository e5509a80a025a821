/**
 * Svc_Virtual_Guest_Block_Device_Template_Group: a template read (the account's own or a public
 * one), its name and note edited, the datacenters it is available in set, deleted, and the public
 * ones listed (`getPublicImages`). Only the account's own templates change, and none while its
 * capture runs. Captures start from the guest (`Virtual_Guest.createArchiveTransaction`,
 * ../virtual-guest/capture.ts).
 */
import { datacenterById } from '../../catalog';
import { invalidValue, objectNotFound, publicFault } from '../../errors';
import { checkNotes, isStruct, listOf, readInt, readString } from '../../validators';
import { expectArgs, list, ok, requireId, structArg, type AuthedContext } from '../context';
import { serviceFolder } from '../service';
import { PUBLIC_IMAGES, imageById, isCaptured, tables, type ImageRec } from './model';
import './types';

const TYPE = 'Svc_Virtual_Guest_Block_Device_Template_Group';

const loadImage = (ctx: AuthedContext): ImageRec => {
  const id = requireId(ctx);
  // Another account's template answers exactly like a missing one.
  const image = imageById(ctx.store, ctx.account.id, id);
  if (!image) throw objectNotFound(id);
  return image;
};

/** The account's own template, idle: what may change. */
function ownImage(ctx: AuthedContext): ImageRec {
  const image = loadImage(ctx);
  if (image.publicFlag)
    throw publicFault(`Image template ${image.id} is public; only its owner changes it.`);
  if (!isCaptured(image, ctx.now))
    throw publicFault(
      `Image template ${image.id} is still being captured; it can be changed once that is done.`,
    );
  return image;
}

const EDITABLE = new Set(['name', 'note']);

function edited(image: ImageRec, template: Record<string, unknown>): ImageRec {
  for (const key of Object.keys(template)) {
    if (!EDITABLE.has(key) && !(key === 'id' && template.id === image.id))
      throw invalidValue(`${TYPE}::editObject changes 'name' and 'note' only, not '${key}'.`);
  }
  const name = template.name === undefined ? image.name : readString(template.name, 'name').trim();
  if (name === '' || name.length > 100)
    throw invalidValue("Invalid value provided for 'name': 1 to 100 characters.");
  const note = template.note === undefined ? image.note : checkNotes(template.note);
  return { ...image, name, note };
}

function readLocations(value: unknown): number[] {
  const ids = listOf(value, 'locations').map((entry, i) => {
    const id = readInt(isStruct(entry) ? entry.id : undefined, `locations[${i}].id`);
    if (!datacenterById(id))
      throw invalidValue(`Invalid value provided for 'locations[${i}].id': no datacenter ${id}.`);
    return id;
  });
  if (ids.length === 0) throw invalidValue("'locations' needs at least one datacenter: [{id}].");
  return [...new Set(ids)];
}

export const imageTemplate = serviceFolder({
  tables,
  services: {
    Virtual_Guest_Block_Device_Template_Group: {
      load: loadImage,
      methods: {
        editObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const image = edited(ownImage(ctx), structArg(ctx, 0, 'templateObject'));
            await ctx.store.write([{ put: 'images', record: image }]);
            return ok(true);
          },
        },
        setAvailableLocations: {
          handler: async (ctx) => {
            expectArgs(ctx, ['locations']);
            const image = ownImage(ctx);
            const datacenterIds = readLocations(ctx.args[0]);
            await ctx.store.write([{ put: 'images', record: { ...image, datacenterIds } }]);
            return ok(true);
          },
        },
        deleteObject: {
          handler: async (ctx) => {
            expectArgs(ctx, []);
            const image = ownImage(ctx);
            await ctx.store.write([{ del: 'images', id: image.id }]);
            return ok({ id: ctx.store.nextSubId() });
          },
        },
        getPublicImages: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            return list(ctx, TYPE, PUBLIC_IMAGES, null);
          },
        },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    imageTemplate: typeof imageTemplate;
  }
}
