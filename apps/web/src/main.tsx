import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

// A record's public address (/records/{id}, the one its DCAT and schema.org metadata name) opens the
// app's own route for it: the app routes in the fragment (#/records/{id}).
const direct = /^(.*)\/records\/([0-9a-f-]{36})\/?$/i.exec(window.location.pathname);
if (direct && !window.location.hash) window.history.replaceState(null, '', `${direct[1]}/#/records/${direct[2]}`);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
