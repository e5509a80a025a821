/** Svc_Hardware_Server: read-only (getObject and the relation getters). */
import { ownedById } from '../context';
import { serviceFolder } from '../service';
import { tables } from './model';
import './types';

export const hardware = serviceFolder({
  tables,
  services: {
    Hardware_Server: { load: ownedById((ctx, id) => ctx.store.get('hardware', id)), methods: {} },
  },
});

declare module '../service' {
  interface ServiceFolders {
    hardware: typeof hardware;
  }
}
