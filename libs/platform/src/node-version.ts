/** The Node.js major the project pins (the `node` devDependency); its entry points refuse any other. */
export const REQUIRED_NODE_MAJOR = 24;

/** Why this Node cannot run the product, or undefined when it can. */
export function nodeVersionProblem(version: string = process.versions.node, executable: string = process.execPath): string | undefined {
  if (Number(version.split('.')[0]) === REQUIRED_NODE_MAJOR) return undefined;
  return (
    `Node.js ${REQUIRED_NODE_MAJOR} is required, but this is Node.js ${version} (${executable}). ` +
    `npm start and npm test use the project's own Node ${REQUIRED_NODE_MAJOR} (after npm install); to start a file directly, use node_modules/.bin/node.`
  );
}
