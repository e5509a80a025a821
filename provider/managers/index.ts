export * from './types';
export * from './virtual-guest';
export * from './upgrade';
export * from './dns';
export * from './ticket';
export * from './account';
export * from './ssh-key';
export * from './security-group';
