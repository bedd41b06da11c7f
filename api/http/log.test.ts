/**
 * The log lines: the prepared request line is the very line pino writes for the same fields, the
 * time text is toISOString's, and stdout's batches keep every line in order.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { batchedLines, createLogger, infoLines, isoTime, maxUnwrittenBytes, silentLogger } from "./log.ts";

const keeping = () => {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
};
/** A line with its time member's value blanked (the two lines are written a moment apart). */
const timeless = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"T"');

describe("the prepared info line", () => {
  const fields = { reqId: "abc-123", method: "GET", route: "/api/products/:slug", status: 200, ms: 0.3, bytes: 14786, client: "127.0.0.0/24" };
  const members = ',"reqId":"abc-123","method":"GET","route":"/api/products/:slug","status":200,"ms":0.3,"bytes":14786,"client":"127.0.0.0/24"';

  it("is the line logger.info writes for the same fields and message, byte for byte but the time", () => {
    const { lines, destination } = keeping();
    const logger = createLogger({ level: "info", destination });
    logger.info(fields, "request");
    infoLines(logger, "request")(members);
    expect(lines).toHaveLength(2);
    expect(timeless(lines[1]!)).toBe(timeless(lines[0]!));
    const line = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(line).toEqual({ level: 30, time: expect.any(String), pid: process.pid, hostname: os.hostname(), ...fields, msg: "request" });
    expect(Object.keys(line)).toEqual(["level", "time", "pid", "hostname", ...Object.keys(fields), "msg"]);
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
    expect(lines[1]!.endsWith("}\n")).toBe(true);
  });

  it("goes through logger.info for a logger made elsewhere (its bindings and format kept)", () => {
    const { lines, destination } = keeping();
    const child = createLogger({ level: "info", destination }).child({ job: "nightly" });
    infoLines(child, "request")(members);
    child.info(fields, "request");
    expect(lines).toHaveLength(2);
    expect(timeless(lines[0]!)).toBe(timeless(lines[1]!));
    expect(JSON.parse(lines[0]!)).toMatchObject({ job: "nightly", ...fields, msg: "request" });
    const foreign: string[] = [];
    infoLines(pino({ base: null }, { write: (line: string) => void foreign.push(line) }), "request")(members);
    expect(JSON.parse(foreign[0]!)).toEqual({ level: 30, time: expect.any(Number), ...fields, msg: "request" });
  });

  it("is written to the logger's destination without asking its level again (the caller checks that info is enabled)", () => {
    const { lines, destination } = keeping();
    const logger = createLogger({ level: "warn", destination });
    logger.info(fields, "request"); // below the level: not written
    infoLines(logger, "request")(members);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, ...fields, msg: "request" });
  });
});

describe("loggers", () => {
  it("a silent logger writes nothing at any level", () => {
    const logger = silentLogger();
    expect(logger.level).toBe("silent");
    expect(logger.isLevelEnabled("fatal")).toBe(false);
  });

  it("every logger without a destination of its own writes to one and the same stdout batch (one order of lines)", () => {
    const streamOf = (logger: ReturnType<typeof createLogger>) => (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as Record<string, unknown>;
    const one = streamOf(createLogger({ level: "silent" }));
    const two = streamOf(createLogger({ level: "warn" }));
    expect(one).toBe(two);
    expect(typeof one.flush).toBe("function");
    expect(typeof one.flushSync).toBe("function");
  });
});

describe("isoTime", () => {
  it("is toISOString's text at every millisecond of a second, across second, day and year ends, and back in time", () => {
    const start = Date.UTC(2026, 11, 31, 23, 59, 58, 0);
    for (let ms = start; ms < start + 3000; ms++) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    for (const ms of [Date.UTC(2026, 0, 1, 0, 0, 0, 5), 0, 999, 1000, Date.UTC(2026, 5, 15, 12, 30, 45, 50), start + 2999]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });
});

describe("batched lines", () => {
  const files: string[] = [];
  afterEach(() => {
    for (const file of files.splice(0)) fs.rmSync(file, { force: true });
  });
  const tempFile = () => {
    const file = path.join(os.tmpdir(), `pawprice-log-${process.pid}-${files.length}-${Date.now()}.log`);
    files.push(file);
    return { file, fd: fs.openSync(file, "w") };
  };
  const line = (i: number) => `{"n":${String(i).padStart(4, "0")},"pad":"${"x".repeat(35)}"}\n`; // 55 characters

  it("writes a batch exactly when it reaches the batch size, not a line later", () => {
    const { file, fd } = tempFile();
    const lines = batchedLines(fd, 110);
    lines.write(line(0));
    expect(fs.readFileSync(file, "utf8")).toBe("");
    lines.write(line(1)); // 110 characters: exactly the batch size
    expect(fs.readFileSync(file, "utf8")).toBe(line(0) + line(1));
    fs.closeSync(fd);
  });

  it("holds lines until they reach the batch size, then writes them all in order", () => {
    const { file, fd } = tempFile();
    const lines = batchedLines(fd, 550);
    for (let i = 0; i < 9; i++) lines.write(line(i));
    expect(fs.readFileSync(file, "utf8")).toBe(""); // 495 characters: under the batch size
    lines.write(line(9)); // 550: a batch
    expect(fs.readFileSync(file, "utf8")).toBe(Array.from({ length: 10 }, (_, i) => line(i)).join(""));
    fs.closeSync(fd);
  });

  it("writes what waits on flush and at exit, every line once and in order", async () => {
    const { file, fd } = tempFile();
    const lines = batchedLines(fd, 110);
    const all: string[] = [];
    for (let i = 0; i < 25; i++) {
      all.push(line(i));
      lines.write(line(i)); // two lines a batch, the last one waiting
    }
    expect(fs.readFileSync(file, "utf8")).toBe(all.slice(0, 24).join(""));
    await new Promise<void>((resolve, reject) => lines.flush((error) => (error ? reject(error) : resolve())));
    expect(fs.readFileSync(file, "utf8")).toBe(all.join(""));
    lines.write(line(25));
    lines.flushSync();
    expect(fs.readFileSync(file, "utf8")).toBe([...all, line(25)].join(""));
    fs.closeSync(fd);
  });

  it("keeps what a full pipe did not take and writes it first once the pipe drains", () => {
    const fifo = path.join(os.tmpdir(), `pawprice-log-fifo-${process.pid}-${Date.now()}`);
    files.push(fifo);
    execFileSync("mkfifo", [fifo]);
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writer = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    const received: Buffer[] = [];
    const drain = () => {
      const chunk = Buffer.alloc(1 << 16);
      for (;;) {
        try {
          const n = fs.readSync(reader, chunk);
          if (n === 0) return;
          received.push(Buffer.from(chunk.subarray(0, n)));
        } catch {
          return; // EAGAIN: empty for now
        }
      }
    };
    try {
      const lines = batchedLines(writer, 55 * 1000);
      const all = Array.from({ length: 4000 }, (_, i) => line(i)); // 220 KB: more than a pipe holds
      for (const text of all) lines.write(text);
      drain();
      expect(Buffer.concat(received).length).toBeLessThan(all.join("").length); // the pipe filled up
      for (let i = 0; i < 20 && Buffer.concat(received).length < all.join("").length; i++) {
        lines.flush();
        drain();
      }
      expect(Buffer.concat(received).toString()).toBe(all.join(""));
    } finally {
      fs.closeSync(writer);
      fs.closeSync(reader);
    }
  });

  /** A named pipe, both ends open and non-blocking; `drain` reads what waits in it. */
  const namedPipe = () => {
    const fifo = path.join(os.tmpdir(), `pawprice-log-fifo-${process.pid}-${files.length}-${Date.now()}`);
    files.push(fifo);
    execFileSync("mkfifo", [fifo]);
    const pipe = {
      reader: fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK),
      writer: fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK),
      reopenReader() {
        pipe.reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      },
      drain(): Buffer {
        const received: Buffer[] = [];
        const chunk = Buffer.alloc(1 << 16);
        for (;;) {
          try {
            const n = fs.readSync(pipe.reader, chunk);
            if (n === 0) break;
            received.push(Buffer.from(chunk.subarray(0, n)));
          } catch {
            break; // EAGAIN: empty for now
          }
        }
        return Buffer.concat(received);
      },
      /** Writes until the pipe takes not one byte more; the bytes written. */
      fill(): number {
        let written = 0;
        for (const size of [4096, 1]) {
          for (;;) {
            try {
              written += fs.writeSync(pipe.writer, Buffer.alloc(size, "f"));
            } catch (error) {
              expect((error as NodeJS.ErrnoException).code).toBe("EAGAIN");
              break;
            }
          }
        }
        return written;
      },
      close() {
        fs.closeSync(pipe.writer);
        fs.closeSync(pipe.reader);
      },
    };
    return pipe;
  };

  it("drops a batch a pipe with no reader refuses (EPIPE): a later reader gets only what came after", () => {
    const pipe = namedPipe();
    try {
      fs.closeSync(pipe.reader);
      const lines = batchedLines(pipe.writer, 10);
      lines.write(line(0)); // refused: nobody reads
      pipe.reopenReader();
      lines.write(line(1));
      expect(pipe.drain().toString()).toBe(line(1));
    } finally {
      pipe.close();
    }
  });

  it(`keeps up to ${maxUnwrittenBytes} bytes a full pipe has not taken (EAGAIN), and drops more`, () => {
    const pipe = namedPipe();
    try {
      // Exactly the most that is kept: all of it arrives once the pipe drains.
      let filler = pipe.fill();
      const kept = batchedLines(pipe.writer, maxUnwrittenBytes);
      kept.write("k".repeat(maxUnwrittenBytes)); // a batch: the full pipe takes none of it
      let received = pipe.drain().length - filler;
      expect(received).toBe(0);
      for (let i = 0; i < 2000 && received < maxUnwrittenBytes; i++) {
        kept.flush();
        received += pipe.drain().length;
      }
      expect(received).toBe(maxUnwrittenBytes);

      // One byte more: dropped; what comes after it arrives alone.
      filler = pipe.fill();
      const dropped = batchedLines(pipe.writer, maxUnwrittenBytes + 1);
      dropped.write("d".repeat(maxUnwrittenBytes + 1));
      expect(pipe.drain().length).toBe(filler);
      dropped.write("after\n");
      dropped.flush();
      expect(pipe.drain().toString()).toBe("after\n");
    } finally {
      pipe.close();
    }
  });

  it("drops a batch the file refuses and goes on", async () => {
    const { file, fd: writable } = tempFile();
    fs.closeSync(writable);
    const fd = fs.openSync(file, "r"); // open for reading only: every write fails (EBADF)
    const lines = batchedLines(fd, 10);
    expect(() => lines.write(line(0))).not.toThrow();
    await new Promise<void>((resolve) => lines.flush(() => resolve()));
    lines.write(line(1));
    expect(() => lines.flushSync()).not.toThrow();
    fs.closeSync(fd);
  });
});
