import { ImageManager, type ImageTemplate } from '../../managers';
import {
  BOOLEAN,
  ID,
  STRING,
  defineLookups,
  listOf,
  lookup,
  objectType,
  prop,
} from '../../lookups/define';
import { DATACENTER } from '../../lookups/types';

/** A template as the lookup answers it. */
type Found = Omit<ImageTemplate, 'publicFlag'> & { publicFlag: boolean };

const TEMPLATE = objectType<Found>({
  name: 'ImageTemplateResult',
  description: "An image template: one of the account's own (private) or a public one.",
  properties: {
    id: prop(ID, "The template's id.", { required: true }),
    name: prop(STRING, 'Its name.', { required: true }),
    note: prop(STRING, 'Its note.'),
    globalIdentifier: prop(STRING, "What a guest's `imageTemplateId` takes."),
    publicFlag: prop(BOOLEAN, 'Whether it is a public template.'),
    createDate: prop(STRING, 'When it was made.'),
    datacenters: prop(listOf(DATACENTER), 'Where guests can be made from it.'),
  },
});

const VISIBILITIES = ['private', 'public', 'all'] as const;
type Visibility = (typeof VISIBILITIES)[number];
const MASK = 'mask[id,name,note,globalIdentifier,publicFlag,createDate,datacenters[id,name]]';

/** The lookups of ImageTemplate (registered with the kind in kinds/index.ts). */
export const IMAGE_TEMPLATE_LOOKUPS = defineLookups({
  getImageTemplates: lookup({
    description:
      "Image templates: the account's own (`Account.getPrivateBlockDeviceTemplateGroups`), the public ones (`getPublicImages`) or both, all or those of one name.",
    inputs: {
      visibility: prop(STRING, '`private`, `public` or `all` (the default).'),
      name: prop(STRING, 'Only the templates of exactly this name.'),
    },
    result: listOf(TEMPLATE),
    example: {
      title: 'The public templates named "Ubuntu 24.04 LTS base image"',
      name: 'ubuntu',
      args: { visibility: 'public', name: 'Ubuntu 24.04 LTS base image' },
      exports: ['items'],
    },
    check: (a, failures) => {
      if (a.visibility !== undefined)
        failures.oneOf('visibility', a.visibility, VISIBILITIES, 'visibility');
      failures.string('name', a.name, { maxLength: 100 });
    },
    call: async (client, { visibility, name }) => {
      const manager = new ImageManager(client);
      const where = name === undefined ? {} : { name: { operation: name } };
      const which = (visibility ?? 'all') as Visibility;
      const own = which === 'public' ? [] : await manager.listPrivate(where, MASK);
      const shared = which === 'private' ? [] : await manager.listPublic(where, MASK);
      return [...own, ...shared].map((t): Found => ({ ...t, publicFlag: Boolean(t.publicFlag) }));
    },
  }),
});
