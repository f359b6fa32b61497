// Jest's order, but the container suite first: it builds the product's image (minutes of one core)
// and would otherwise start last on a clean clone (no timings cached) and leave the other worker idle.
const Sequencer = require('@jest/test-sequencer').default;

const FIRST = /containers\.e2e-spec\.ts$/;

class ContainersFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return [...sorted.filter((test) => FIRST.test(test.path)), ...sorted.filter((test) => !FIRST.test(test.path))];
  }
}

module.exports = ContainersFirst;
