export * from './mailer';
export * from './mail-template';
export * from './file-mailer';
export * from './smtp-mailer';
export * from './in-memory-mailer';
export * from './raw-mail';
export * from './plain-mail';
