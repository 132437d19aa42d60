/**
 * Jest's own runner with one worker: the tier of tests that start servers, database engines and
 * browsers runs its files one after another, so on a 2-core machine they never fight each other for
 * the cores (each file is parallel inside itself where it needs to be). Jest runs each runner's files
 * after the previous runner's are done, so this tier also never overlaps the parallel one.
 */
import TestRunner from 'jest-runner';

type RunnerArguments = ConstructorParameters<typeof TestRunner>;

export default class SerialRunner extends TestRunner {
  constructor(globalConfig: RunnerArguments[0], context: RunnerArguments[1]) {
    // A worker process rather than jest's own (runInBand): a test that crashes cannot take the run with it.
    super({ ...globalConfig, maxWorkers: 1 }, context);
  }
}
