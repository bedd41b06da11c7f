/**
 * The server's background jobs (price-alert checks now; site rebuilds and price refreshes next)
 * share one rule: run soon, one at a time, and coalesce. Requests that arrive before a run starts
 * share that run; a request during a run gets exactly one more run after it (the running one may
 * have read the data before the change that asked for it).
 */

export interface JobRunner<T> {
  /**
   * Asks for a run and resolves with its result: at once when idle and there is no delay; else
   * the next run, which starts when the delay since the first waiting request has passed and the
   * current run has finished.
   */
  request(): Promise<T>;
  /** Whether a run is under way. */
  readonly running: boolean;
  /** Takes no more requests, drops a run not yet started (resolving it with `whenStopped`) and waits for the current one. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions<T> {
  /** How long requests gather before a run starts (ms); 0 starts an idle runner's run at once. */
  delayMs?: number;
  /** What a request made after stop(), or dropped by it, resolves with. */
  whenStopped: T;
}

export function createJobRunner<T>(job: () => Promise<T>, { delayMs = 0, whenStopped }: JobRunnerOptions<T>): JobRunner<T> {
  let current: Promise<T> | null = null;
  let next: { result: Promise<T>; cancel: () => void } | null = null;
  let stopped = false;

  const start = (): Promise<T> => {
    const run = job().finally(() => {
      if (current === run) current = null;
    });
    current = run;
    return run;
  };

  const request = (): Promise<T> => {
    if (stopped) return Promise.resolve(whenStopped);
    if (next) return next.result;
    if (!current && delayMs === 0) return start();

    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancel!: () => void;
    const cancelled = new Promise<"cancelled">((resolve) => (cancel = () => resolve("cancelled")));
    const delay = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, delayMs);
      // A waiting run must not keep a process alive on its own (tests, scripts); the server's listener does.
      timer.unref?.();
    });
    const ready = Promise.all([delay, (current ?? Promise.resolve()).catch(() => undefined)]);
    const result = Promise.race([ready, cancelled]).then((outcome) => {
      next = null;
      return outcome === "cancelled" ? whenStopped : start();
    });
    next = {
      result,
      cancel: () => {
        clearTimeout(timer);
        cancel();
      },
    };
    return result;
  };

  return {
    request,
    get running() {
      return current !== null;
    },
    async stop() {
      stopped = true;
      const waiting = next;
      waiting?.cancel();
      await waiting?.result;
      await current?.catch(() => undefined);
    },
  };
}
