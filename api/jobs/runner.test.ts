import { afterEach, describe, expect, it, vi } from "vitest";
import { createJobRunner } from "./runner.ts";

/** A job whose runs finish when the test says so. */
function controllableJob() {
  const runs: { finish: (value: string) => void; fail: (error: Error) => void }[] = [];
  const job = vi.fn(
    () =>
      new Promise<string>((resolve, reject) => {
        runs.push({ finish: resolve, fail: reject });
      }),
  );
  return { job, runs };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createJobRunner", () => {
  it("starts an idle job at once and resolves with its result", async () => {
    const { job, runs } = controllableJob();
    const runner = createJobRunner(job, { whenStopped: "stopped" });
    const result = runner.request();
    expect(job).toHaveBeenCalledTimes(1);
    expect(runner.running).toBe(true);
    runs[0]!.finish("first");
    await expect(result).resolves.toBe("first");
    expect(runner.running).toBe(false);
  });

  it("answers requests during a run with exactly one more run after it", async () => {
    const { job, runs } = controllableJob();
    const runner = createJobRunner(job, { whenStopped: "stopped" });
    const first = runner.request();
    const second = runner.request();
    const third = runner.request();
    expect(third).toBe(second);
    expect(job).toHaveBeenCalledTimes(1);
    runs[0]!.finish("first");
    await expect(first).resolves.toBe("first");
    await vi.waitFor(() => expect(job).toHaveBeenCalledTimes(2));
    runs[1]!.finish("second");
    await expect(second).resolves.toBe("second");
    // Idle again: the next request starts a new run.
    const fourth = runner.request();
    expect(job).toHaveBeenCalledTimes(3);
    runs[2]!.finish("fourth");
    await expect(fourth).resolves.toBe("fourth");
  });

  it("runs the follow-up even when the run before it failed", async () => {
    const { job, runs } = controllableJob();
    const runner = createJobRunner(job, { whenStopped: "stopped" });
    const first = runner.request();
    const second = runner.request();
    runs[0]!.fail(new Error("disk full"));
    await expect(first).rejects.toThrow("disk full");
    await vi.waitFor(() => expect(job).toHaveBeenCalledTimes(2));
    runs[1]!.finish("recovered");
    await expect(second).resolves.toBe("recovered");
  });

  it("gathers the requests of a delay window into one run", async () => {
    vi.useFakeTimers();
    const { job, runs } = controllableJob();
    const runner = createJobRunner(job, { delayMs: 3000, whenStopped: "stopped" });
    const first = runner.request();
    await vi.advanceTimersByTimeAsync(2000);
    const second = runner.request();
    expect(second).toBe(first);
    await vi.advanceTimersByTimeAsync(999);
    expect(job).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(job).toHaveBeenCalledTimes(1);
    runs[0]!.finish("one build");
    await expect(first).resolves.toBe("one build");
    await expect(second).resolves.toBe("one build");
  });

  it("waits for both the delay and a run under way", async () => {
    vi.useFakeTimers();
    const { job, runs } = controllableJob();
    const runner = createJobRunner(job, { delayMs: 1000, whenStopped: "stopped" });
    const first = runner.request();
    await vi.advanceTimersByTimeAsync(1000);
    expect(job).toHaveBeenCalledTimes(1);
    const second = runner.request();
    await vi.advanceTimersByTimeAsync(5000);
    // The delay is over, but the first run is not: still one call.
    expect(job).toHaveBeenCalledTimes(1);
    runs[0]!.finish("first");
    await first;
    await vi.waitFor(() => expect(job).toHaveBeenCalledTimes(2));
    runs[1]!.finish("second");
    await expect(second).resolves.toBe("second");
  });

  it("on stop drops a run not started yet, waits for the current one and takes no more requests", async () => {
    const { job, runs } = controllableJob();
    const runner = createJobRunner(job, { whenStopped: "stopped" });
    const first = runner.request();
    const waiting = runner.request();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await expect(waiting).resolves.toBe("stopped");
    expect(stopped).toBe(false);
    runs[0]!.finish("first");
    await stopping;
    await expect(first).resolves.toBe("first");
    await expect(runner.request()).resolves.toBe("stopped");
    expect(job).toHaveBeenCalledTimes(1);
  });

  it("on stop cancels a delayed run at once", async () => {
    const { job } = controllableJob();
    const runner = createJobRunner(job, { delayMs: 60_000, whenStopped: "stopped" });
    const waiting = runner.request();
    await runner.stop();
    await expect(waiting).resolves.toBe("stopped");
    expect(job).not.toHaveBeenCalled();
  });
});
