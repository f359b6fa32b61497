export * from './infra';
export * from './postgres';
export * from './s3';
export * from './browser';
export * from './process';
export * from './kafka';
export * from './smtp';
