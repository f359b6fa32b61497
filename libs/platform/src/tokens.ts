/** Injection tokens for what the platform provides to every service. */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const SERVICE_NAME = Symbol('SERVICE_NAME');
