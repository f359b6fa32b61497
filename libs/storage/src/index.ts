export * from './errors';
export * from './object-key';
export * from './object-storage';
export * from './metering-stream';
export * from './signed-link-signer';
export * from './fs-object-storage';
export * from './s3-object-storage';
