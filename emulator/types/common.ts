/**
 * Small value types shared by several objects (statuses, tags, transactions, operating
 * systems and the software components that carry them).
 */
import { findOs, OPERATING_SYSTEMS } from '../catalog';
import type { GuestRec, TagRec } from '../records';
import { defineType, definePlainType } from '../schema';

definePlainType('Svc_Virtual_Guest_Power_State', ['keyName', 'name']);
definePlainType('Svc_Virtual_Guest_Status', ['keyName', 'name']);
definePlainType('Svc_Provisioning_Version1_Transaction_Status', ['name', 'friendlyName']);
definePlainType('Svc_Provisioning_Version1_Transaction_Group', ['name', 'averageTimeToComplete']);
definePlainType('Svc_Hardware_Status', ['id', 'status']);
definePlainType('Svc_Security_Ssh_Key', ['id']);
definePlainType('Svc_Virtual_Guest_Attribute', ['value']);
definePlainType('Svc_User_Customer_Status', ['id', 'keyName', 'name']);
definePlainType('Svc_User_Customer_ApiAuthentication', ['id', 'authenticationKey']);
definePlainType('Svc_Ticket_Status', ['id', 'name']);
definePlainType('Svc_Ticket_Subject', ['id', 'name']);
definePlainType('Svc_Product_Package', ['id', 'keyName', 'name', 'description', 'isActive']);

defineType<Record<string, unknown>>('Svc_Provisioning_Version1_Transaction', {
  locals: {
    id: (t) => t.id,
    guestId: (t) => t.guestId,
    createDate: (t) => t.createDate,
    modifyDate: (t) => t.modifyDate,
    statusChangeDate: (t) => t.statusChangeDate,
    elapsedSeconds: (t) => t.elapsedSeconds,
  },
  relations: {
    transactionStatus: {
      type: 'Svc_Provisioning_Version1_Transaction_Status',
      get: (t) => t.transactionStatus,
    },
    transactionGroup: {
      type: 'Svc_Provisioning_Version1_Transaction_Group',
      get: (t) => t.transactionGroup,
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

/** Ids of objects the emulator derives instead of storing (OS components, licenses). */
const OS_COMPONENT_BASE = 300_000_000;
const SOFTWARE_DESCRIPTION_BASE = 1_000;

/** A guest's operating system, as a software component with its license and description. */
export interface OsComponentView {
  guest: GuestRec;
}

function softwareDescription(code: string): Record<string, unknown> | undefined {
  const os = findOs(code);
  return (
    os && {
      id: SOFTWARE_DESCRIPTION_BASE + OPERATING_SYSTEMS.indexOf(os),
      referenceCode: os.referenceCode,
      name: os.name,
      version: os.version,
      manufacturer: os.manufacturer,
      longDescription: os.description,
      operatingSystem: 1,
    }
  );
}

definePlainType('Svc_Software_Description', [
  'id',
  'referenceCode',
  'name',
  'version',
  'manufacturer',
  'longDescription',
  'operatingSystem',
]);

defineType<OsComponentView>('Svc_Software_License', {
  locals: {
    id: (o) => OS_COMPONENT_BASE + o.guest.id,
    softwareDescriptionId: (o) => softwareDescription(o.guest.osCode)?.id,
  },
  relations: {
    softwareDescription: {
      type: 'Svc_Software_Description',
      get: (o) => softwareDescription(o.guest.osCode),
    },
  },
});

defineType<OsComponentView>(['Svc_Software_Component_OperatingSystem', 'Svc_Software_Component'], {
  locals: {
    id: (o) => OS_COMPONENT_BASE + o.guest.id,
  },
  relations: {
    softwareLicense: { type: 'Svc_Software_License', get: (o) => o },
    softwareDescription: {
      type: 'Svc_Software_Description',
      get: (o) => softwareDescription(o.guest.osCode),
    },
    virtualGuest: { type: 'Svc_Virtual_Guest', get: (o) => o.guest },
  },
});
