/**
 * The bare-metal package (`BARE_METAL_SERVER`): a server is ordered as one of its presets (a
 * fixed chassis, CPU, memory and disk layout) plus an operating system and a port speed of the
 * guests' catalog. Some presets bill by the hour or the month, the larger ones by the month only,
 * as the API's hourly bare-metal presets are a subset of the monthly ones. Nothing here is stored.
 */
import type { Price } from '../../catalog';

export const BARE_METAL_PACKAGE = {
  id: 200,
  keyName: 'BARE_METAL_SERVER',
  name: 'Bare Metal Server',
  description: 'Bare Metal Server',
};

/** The port speeds a bare-metal server is sold with (Mbps); the guests' 10 Mbps is not. */
export const HARDWARE_PORT_SPEEDS: readonly number[] = [100, 1000];

/** The API's key name of the redundant uplinks (two bonded ports on each network) of a speed. */
export const redundantPortKey = (speed: number) =>
  `${speed}_MBPS_REDUNDANT_PUBLIC_PRIVATE_NETWORK_UPLINKS`;

/** Redundant uplinks, sold at each port speed beside the single ones, dearer. */
export const redundantPortPrice = (speed: number): Price => ({
  id: 27_000 + speed,
  hourly: speed >= 1000 ? 0.1 : 0.03,
  description: `${speed} Mbps Redundant Public & Private Network Uplinks`,
  categoryCode: 'port_speed',
});

export interface HardwarePresetSpec {
  keyName: string;
  description: string;
  cores: number;
  memoryGb: number;
  diskGb: number;
  /** Whether the preset may be billed by the hour (every preset may be billed monthly). */
  hourly: boolean;
  /** The server's own price (the preset), per hour; a month is 730 hours of it. */
  price: Price;
}

const preset = (
  n: number,
  keyName: string,
  description: string,
  size: [cores: number, memoryGb: number, diskGb: number],
  hourly: boolean,
  perHour: number,
): HardwarePresetSpec => ({
  keyName,
  description,
  cores: size[0],
  memoryGb: size[1],
  diskGb: size[2],
  hourly,
  price: { id: 880_000 + n, hourly: perHour, description, categoryCode: 'server' },
});

export const HARDWARE_PRESETS: readonly HardwarePresetSpec[] = [
  preset(
    1,
    'S1270_32GB_1X1TBSATA_NORAID',
    'Single E3-1270 v6, 32 GB, 1 x 1 TB SATA',
    [4, 32, 1000],
    true,
    0.86,
  ),
  preset(
    2,
    'D2620V4_64GB_2X1TBSATA_RAID_1',
    'Dual E5-2620 v4, 64 GB, 2 x 1 TB SATA RAID 1',
    [16, 64, 1000],
    true,
    1.42,
  ),
  preset(
    3,
    'S1270_8GB_2X1TBSATA_NORAID',
    'Single E3-1270 v6, 8 GB, 2 x 1 TB SATA',
    [4, 8, 2000],
    false,
    0.38,
  ),
  preset(
    4,
    'D2690V4_512GB_4X4TBSATA_RAID_10',
    'Dual E5-2690 v4, 512 GB, 4 x 4 TB SATA RAID 10',
    [28, 512, 8000],
    false,
    2.61,
  ),
];

export const HARDWARE_CATEGORIES: Readonly<Record<string, { id: number; name: string }>> = {
  server: { id: 1, name: 'Server' },
  os: { id: 12, name: 'Operating System' },
  port_speed: { id: 26, name: 'Uplink Port Speeds' },
};
