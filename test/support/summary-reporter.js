/**
 * Ends every jest run with one plain line, `Tests: N passed, N failed, N skipped`, the closing line
 * CI tooling reads (jest's own summary says "N total" instead of "N failed"). Jest always prints its
 * summary after every custom reporter, so the line is written when the process exits.
 */
export default class SummaryReporter {
  /**
   * @param {unknown} _contexts
   * @param {import('@jest/reporters').AggregatedResult} results
   */
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `Tests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests + results.numTodoTests} skipped`;
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
