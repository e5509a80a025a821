export { startEmulator } from './emulator';
export type { EmulatorHandle, EmulatorOptions } from './emulator';
export type { FaultOptions, FaultState, OnceFault, InjectedFault } from './faults';
export type { SeedName, SeededAccounts } from './seed';
export type { AccountCredentials } from './services/account/model';
export type { AccountObjects } from './inventory';
export type { EmulatorStats } from './stats';
export { CorruptDataError } from './journal';
