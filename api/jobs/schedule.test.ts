import { afterEach, describe, expect, it, vi } from "vitest";
import { createSchedule, type JobOutcome } from "./schedule.ts";

afterEach(() => {
  vi.useRealTimers();
});

/** A job whose runs wait until released, counting starts. */
function gated() {
  let starts = 0;
  let release: () => void = () => {};
  const run = () => {
    starts++;
    return new Promise<void>((resolve) => (release = resolve));
  };
  return { run, starts: () => starts, release: () => release() };
}

describe("the schedule", () => {
  it("runs each named job on its own interval: not before a whole interval, then once per interval", () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const schedule = createSchedule({ log: () => {} });
    schedule.add({ name: "fast", every: 100, run: () => runs.push("fast") });
    schedule.add({ name: "slow", every: 250, run: () => runs.push("slow") });
    schedule.start();
    vi.advanceTimersByTime(99);
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual(["fast"]);
    vi.advanceTimersByTime(150);
    expect(runs).toEqual(["fast", "fast", "slow"]);
    void schedule.stop();
  });

  it("runs a job at start (a synchronous one has finished when start returns), or that many ms after it", () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const schedule = createSchedule({ log: () => {} });
    schedule.add({ name: "now", every: 10_000, runAtStart: true, run: () => runs.push("now") });
    schedule.add({ name: "soon", every: 10_000, runAtStart: 1000, run: () => runs.push("soon") });
    schedule.add({ name: "later", every: 10_000, run: () => runs.push("later") });
    expect(runs).toEqual([]);
    schedule.start();
    expect(runs).toEqual(["now"]);
    vi.advanceTimersByTime(999);
    expect(runs).toEqual(["now"]);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual(["now", "soon"]);
    void schedule.stop();
  });

  it("never overlaps a job with itself: ticks during a run are skipped, the next tick after it runs", async () => {
    vi.useFakeTimers();
    const job = gated();
    const schedule = createSchedule({ log: () => {} });
    schedule.add({ name: "slow", every: 100, run: job.run });
    schedule.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(job.starts()).toBe(1);
    expect(schedule.status()[0]!.running).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(job.starts()).toBe(1);
    // Asking for a run while one goes joins it.
    const asked = schedule.run("slow");
    expect(job.starts()).toBe(1);
    job.release();
    expect(await asked).toBe("ok");
    expect(schedule.status()[0]!.running).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(job.starts()).toBe(2);
    job.release();
    await schedule.stop();
  });

  it("tells the observers each finished run's name, outcome and duration", async () => {
    const seen: [string, JobOutcome, number][] = [];
    const schedule = createSchedule({ log: () => {}, onRun: (name, outcome, ms) => seen.push([name, outcome, ms]) });
    const later: string[] = [];
    const remove = schedule.onRun((name) => later.push(name));
    schedule.add({ name: "works", every: 60_000, run: async () => {} });
    schedule.add({ name: "throws", every: 60_000, run: () => { throw new Error("disk full"); } });
    schedule.add({ name: "rejects", every: 60_000, run: async () => { throw new Error("busy"); } });
    expect(await schedule.run("works")).toBe("ok");
    expect(await schedule.run("throws")).toBe("failed");
    expect(await schedule.run("rejects")).toBe("failed");
    remove();
    await schedule.run("works");
    expect(seen.map(([name, outcome]) => [name, outcome])).toEqual([
      ["works", "ok"],
      ["throws", "failed"],
      ["rejects", "failed"],
      ["works", "ok"],
    ]);
    for (const [, , ms] of seen) expect(ms).toBeGreaterThanOrEqual(0);
    expect(later).toEqual(["works", "throws", "rejects"]);
    await schedule.stop();
  });

  it("tells the observers whether the job is a routine check", async () => {
    const seen: [string, boolean][] = [];
    const schedule = createSchedule({ log: () => {}, onRun: (name, _outcome, _ms, routine) => seen.push([name, routine]) });
    schedule.add({ name: "poll", every: 2_000, routine: true, run: () => {} });
    schedule.add({ name: "nightly", every: 60_000, run: () => {} });
    schedule.add({ name: "said-not", every: 60_000, routine: false, run: () => {} });
    await schedule.run("poll");
    await schedule.run("nightly");
    await schedule.run("said-not");
    expect(seen).toEqual([
      ["poll", true],
      ["nightly", false],
      ["said-not", false],
    ]);
    await schedule.stop();
  });

  it("logs a failing run under the job's title and keeps running it on later ticks; its status says failed, then ok", async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    let calls = 0;
    const schedule = createSchedule({ log: (line) => lines.push(line) });
    schedule.add({
      name: "flaky",
      title: "Flaky run",
      every: 100,
      run: () => {
        calls++;
        if (calls <= 2) throw new Error(`attempt ${calls}`);
      },
    });
    schedule.start();
    vi.advanceTimersByTime(100);
    expect(lines).toEqual(["Flaky run failed: attempt 1"]);
    expect(schedule.status()[0]).toMatchObject({ lastOutcome: "failed", lastError: "attempt 1" });
    vi.advanceTimersByTime(200);
    expect(calls).toBe(3);
    expect(lines).toEqual(["Flaky run failed: attempt 1", "Flaky run failed: attempt 2"]);
    expect(schedule.status()[0]).toMatchObject({ lastOutcome: "ok", lastError: null });
    void schedule.stop();
  });

  it("lists each job with its timing, last run and next run, in the order added", () => {
    vi.useFakeTimers({ now: new Date("2026-07-01T10:00:00Z") });
    const at = new Date("2026-07-01T10:00:00Z");
    const schedule = createSchedule({ log: () => {}, now: () => at });
    schedule.add({ name: "hourly", every: 3_600_000, runAtStart: true, run: () => {} });
    schedule.add({ name: "backup", every: "30 3 * * *", run: () => {} });
    // Not started: nothing is planned.
    expect(schedule.status().map((job) => job.nextRunAt)).toEqual([null, null]);
    schedule.start();
    expect(schedule.status()).toEqual([
      {
        name: "hourly",
        every: "every 3600 s",
        running: false,
        lastRunAt: "2026-07-01T10:00:00.000Z",
        lastOutcome: "ok",
        lastDurationMs: expect.any(Number),
        lastError: null,
        nextRunAt: "2026-07-01T11:00:00.000Z",
      },
      {
        name: "backup",
        every: "30 3 * * *",
        running: false,
        lastRunAt: null,
        lastOutcome: null,
        lastDurationMs: null,
        lastError: null,
        // 03:30 in London is 02:30 UTC in summer.
        nextRunAt: "2026-07-02T02:30:00.000Z",
      },
    ]);
    void schedule.stop();
  });

  it("stop stops every job and waits for the runs under way; nothing runs after it", async () => {
    vi.useFakeTimers();
    const job = gated();
    let other = 0;
    const schedule = createSchedule({ log: () => {} });
    schedule.add({ name: "slow", every: 100, run: job.run });
    schedule.add({ name: "other", every: 100, run: () => other++ });
    schedule.add({ name: "cron", every: "* * * * *", run: () => other++ });
    schedule.start();
    await vi.advanceTimersByTimeAsync(100);
    expect([job.starts(), other]).toEqual([1, 1]);
    let stopped = false;
    const stopping = schedule.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    job.release();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect([job.starts(), other]).toEqual([1, 1]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("adds a job to a running schedule at once and removes one, so dynamic timetables (feed sources) go through it", () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const schedule = createSchedule({ log: () => {} });
    schedule.start();
    schedule.add({ name: "feed-source:1", every: 100, runAtStart: true, run: () => runs.push("1") });
    expect(runs).toEqual(["1"]);
    expect(schedule.has("feed-source:1")).toBe(true);
    schedule.remove("feed-source:1");
    expect(schedule.has("feed-source:1")).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(runs).toEqual(["1"]);
    expect(vi.getTimerCount()).toBe(0);
    void schedule.stop();
  });

  it("refuses a name in use, a bad interval or cron pattern, and running an unknown job", async () => {
    const schedule = createSchedule({ log: () => {} });
    schedule.add({ name: "one", every: 1, run: () => {} });
    expect(() => schedule.add({ name: "one", every: 5, run: () => {} })).toThrow(/already/);
    expect(() => schedule.add({ name: "zero", every: 0, run: () => {} })).toThrow(/above 0/);
    expect(() => schedule.add({ name: "fraction", every: 1.5, run: () => {} })).toThrow(/whole number/);
    expect(() => schedule.add({ name: "pattern", every: "every day", run: () => {} })).toThrow();
    expect(schedule.status().map((job) => job.name)).toEqual(["one"]);
    await expect(schedule.run("missing")).rejects.toThrow(/No job called "missing"/);
    await schedule.stop();
  });
});
