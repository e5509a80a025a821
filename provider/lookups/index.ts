export * from './account';
export * from './virtual-guest';
