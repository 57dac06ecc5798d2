/**
 * Tests of one file run side by side (`describe.concurrent`) when each touches only its own data. Where some of
 * them share data (a list a file's own user holds, read whole by some tests and grown by another), a gate keeps
 * the readings honest: readers overlap each other, a writer runs alone, and each waits for what was handed in
 * before it (a writer is not starved by a stream of readers).
 */
export class SharedData {
  /** The end of everything handed in so far (a writer waits for it). */
  private all: Promise<unknown> = Promise.resolve();
  /** The end of the last writer (a reader waits for it only). */
  private lastWrite: Promise<unknown> = Promise.resolve();

  /** `fn` reads the shared data: it may overlap other readers, never a writer. */
  read<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lastWrite.then(fn, fn);
    this.all = Promise.allSettled([this.all, run]);
    return run;
  }

  /** `fn` changes the shared data: it runs alone, after every reader and writer handed in before it. */
  write<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.all.then(fn, fn);
    this.lastWrite = this.all = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
