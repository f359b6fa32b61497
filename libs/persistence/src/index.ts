export * from './embedded-postgres';
export * from './service-data-source';
export * from './notification-channel';
