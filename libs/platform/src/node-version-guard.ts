// Imported first by every entry point, before anything that may not load on another Node
// (native modules built for this one, ES modules loaded with require): stops with a clear message.
import { nodeVersionProblem } from './node-version';

const problem = nodeVersionProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}
