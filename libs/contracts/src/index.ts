export * from './events/envelope';
export * from './events/topics';
export * from './events/registry';
export * from './events/catalog';
export * from './accounts';
export * from './events/catalogue-events';
export * from './events/index-events';
