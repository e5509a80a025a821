/**
 * Small value types shared by several objects (statuses, datacenters, tags, OS descriptions).
 */
import { findOs } from '../catalog';
import { defineType, definePlainType } from '../schema';
import type { TagRec } from '../records';

definePlainType('Svc_Location_Datacenter', ['id', 'name', 'longName']);
definePlainType('Svc_Virtual_Guest_Power_State', ['keyName', 'name']);
definePlainType('Svc_Virtual_Guest_Status', ['keyName', 'name']);
definePlainType('Svc_Provisioning_Version1_Transaction_Status', ['name', 'friendlyName']);
definePlainType('Svc_Hardware_Status', ['id', 'status']);
definePlainType('Svc_Security_Ssh_Key', ['id']);
definePlainType('Svc_Virtual_Guest_Attribute', ['value']);
definePlainType('Svc_Virtual_Disk_Image', ['id', 'capacity', 'units']);
definePlainType('Svc_Software_Description', [
  'referenceCode',
  'name',
  'version',
  'manufacturer',
  'longDescription',
]);
definePlainType('Svc_User_Customer_Status', ['id', 'keyName', 'name']);
definePlainType('Svc_User_Customer_ApiAuthentication', ['id', 'authenticationKey']);
definePlainType('Svc_Ticket_Status', ['id', 'name']);
definePlainType('Svc_Ticket_Subject', ['id', 'name']);

defineType<Record<string, unknown>>('Svc_Provisioning_Version1_Transaction', {
  locals: {
    id: (t) => t.id,
    guestId: (t) => t.guestId,
    createDate: (t) => t.createDate,
    elapsedSeconds: (t) => t.elapsedSeconds,
  },
  relations: {
    transactionStatus: {
      type: 'Svc_Provisioning_Version1_Transaction_Status',
      get: (t) => t.transactionStatus,
    },
  },
});

defineType<TagRec>('Svc_Tag', {
  locals: { id: (t) => t.id, name: (t) => t.name, accountId: (t) => t.accountId },
});

/** `{id, tagId, resourceTableId}`; the tag itself is looked up by id. */
export interface TagRefView {
  id: number;
  tagId: number;
  resourceTableId: number;
  tagTypeId: number;
}

defineType<TagRefView>('Svc_Tag_Reference', {
  locals: {
    id: (r) => r.id,
    tagId: (r) => r.tagId,
    resourceTableId: (r) => r.resourceTableId,
    tagTypeId: (r) => r.tagTypeId,
  },
  relations: { tag: { type: 'Svc_Tag', get: (r, ctx) => ctx.store.get('tags', r.tagId) } },
});

/** An operating system reached through `operatingSystem.softwareLicense.softwareDescription`. */
defineType<{ code: string }>('Svc_Software_Component_OperatingSystem', {
  locals: {},
  relations: { softwareLicense: { type: 'Svc_Software_License', get: (o) => o } },
});

defineType<{ code: string }>('Svc_Software_License', {
  locals: {},
  relations: {
    softwareDescription: {
      type: 'Svc_Software_Description',
      get: (o) => {
        const os = findOs(o.code);
        return (
          os && {
            referenceCode: os.referenceCode,
            name: os.name,
            version: os.version,
            manufacturer: os.manufacturer,
            longDescription: os.description,
          }
        );
      },
    },
  },
});
