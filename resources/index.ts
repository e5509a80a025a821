export * from './virtual-guest';
export * from './dns-record';
export * from './dns-zone';
export * from './ssh-key';
export * from './ticket-update';
export * from './lookups';
export { ValidationError } from '../provider/framework/failures';
