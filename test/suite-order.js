/**
 * The order suites start in: those that run processes, browsers or a whole county's real polygons first (they take
 * longest and spend much of it waiting), then the end-to-end suites, then the short unit specs, which fill the
 * workers' last gaps. Within each, Jest's own order: slowest last time first, else the largest file. Without this, a
 * clean clone (no timings kept) would start a long system suite last and wait for it alone.
 */
const Sequencer = require('@jest/test-sequencer').default;

const RANK = { system: 0, e2e: 1, unit: 2 };
const rankOf = (test) => (/[\\/]test[\\/]real-nfhl[\\/]/.test(test.path) ? 0 : (RANK[test.context.config.displayName?.name] ?? 1));

class SuiteOrder extends Sequencer {
  sort(tests) {
    const jestOrder = super.sort(tests);
    const position = new Map(jestOrder.map((test, index) => [test, index]));
    return [...jestOrder].sort((a, b) => rankOf(a) - rankOf(b) || position.get(a) - position.get(b));
  }
}

module.exports = SuiteOrder;
