/**
 * Jest's own runner, twice, side by side: the tier of tests that start servers, database engines and browsers
 * in a lane of its own, one file after another (so they never fight each other for the cores), and the other
 * tiers in the usual pool of workers beside it. Jest runs one runner's files after another's, so every tier
 * names this one. Worker processes, not jest's own (runInBand): a test that crashes cannot take the run with it.
 */
import TestRunner, { type EmittingTestRunnerInterface, type Test, type TestRunnerContext, type UnsubscribeFn } from 'jest-runner';

type GlobalConfig = ConstructorParameters<typeof TestRunner>[0];
type Parameters_ = Parameters<EmittingTestRunnerInterface['runTests']>;

const LANE_TIER = 'processes';
/** Two at a time: most of a process test waits on the processes it started, so two keep the cores busy without a fight. */
const LANE_WORKERS = 2;
const inLane = (test: Test): boolean => test.context.config.displayName?.name === LANE_TIER;

export default class LanesRunner implements EmittingTestRunnerInterface {
  readonly supportsEventEmitters = true;
  readonly #pool: TestRunner;
  readonly #lane: TestRunner;

  constructor(globalConfig: GlobalConfig, context: TestRunnerContext) {
    this.#pool = new TestRunner(globalConfig, context);
    this.#lane = new TestRunner({ ...globalConfig, maxWorkers: LANE_WORKERS }, context);
  }

  async runTests(tests: Parameters_[0], watcher: Parameters_[1], options: Parameters_[2]): Promise<void> {
    const lane = tests.filter(inLane);
    const pool = tests.filter((test) => !inLane(test));
    await Promise.all([
      lane.length > 0 && this.#lane.runTests(lane, watcher, options),
      pool.length > 0 && this.#pool.runTests(pool, watcher, options),
    ]);
  }

  on: EmittingTestRunnerInterface['on'] = (eventName, listener) => {
    const unsubscribes: UnsubscribeFn[] = [this.#pool.on(eventName, listener), this.#lane.on(eventName, listener)];
    return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
  };
}
