export * from './account';
export * from './define';
