/**
 * A record's public address (/records/{id}, the one its DCAT-AP and schema.org metadata name, served
 * by the gateway with the record's title and JSON-LD for crawlers) opens the app's own route for it:
 * the app routes in the fragment (#/records/{id}). Imported first by main.tsx, so the router, made
 * when App's module loads, starts at the record.
 */
const direct = /^(.*)\/records\/([0-9a-f-]{36})\/?$/i.exec(window.location.pathname);
if (direct && !window.location.hash) window.history.replaceState(null, '', `${direct[1]}/#/records/${direct[2]}`);
