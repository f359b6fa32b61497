// Imported first by the scripts: they run on the Node the project pins (the `node` devDependency),
// which npm puts first on PATH for npm scripts; any other Node stops here with a clear message.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const required = /\d+/.exec(pkg.devDependencies.node)[0];
if (process.versions.node.split('.')[0] !== required) {
  console.error(
    `Node.js ${required} is required, but this is Node.js ${process.versions.node} (${process.execPath}). ` +
      `npm start and npm test use the project's own Node ${required} (after npm install); to run a script directly, use node_modules/.bin/node.`,
  );
  process.exit(1);
}
