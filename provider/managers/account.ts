import type { Client } from '../client';
import type { Account, Datacenter, HardwareServer, IpAddress } from './types';

/** Account-wide lookups: the account itself, its IP addresses and hardware, the datacenters. */
export class AccountManager {
  constructor(private readonly client: Client) {}

  async getAccount(mask?: string): Promise<Account> {
    return (await this.client.call('Account', 'getObject', mask ? { mask } : {})) as Account;
  }

  async getIpAddresses(mask = 'id,ipAddress,subnetId,note,isReserved'): Promise<IpAddress[]> {
    return (await this.client.call('Account', 'getIpAddresses', { mask })) as IpAddress[];
  }

  /** The account's hardware servers, all or those an object filter under `hardware` keeps. */
  async getHardware(
    mask = 'id,hostname,domain,datacenter.name',
    filter?: Record<string, unknown>,
  ): Promise<HardwareServer[]> {
    return (await this.client.call('Account', 'getHardware', {
      mask,
      ...(filter ? { filter } : {}),
    })) as HardwareServer[];
  }

  async getHardwareServer(id: number, mask?: string): Promise<HardwareServer> {
    return (await this.client.call('Hardware_Server', 'getObject', {
      id,
      ...(mask ? { mask } : {}),
    })) as HardwareServer;
  }

  async getDatacenters(): Promise<Datacenter[]> {
    return (await this.client.call('Location_Datacenter', 'getDatacenters', {
      mask: 'id,name,longName',
    })) as Datacenter[];
  }
}
