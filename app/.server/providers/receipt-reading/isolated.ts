import { fork, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ReceiptReader, ReceiptReading } from "./port";

/**
 * The receipt reader the portal uses (decision 0046): the local reader (`local.ts`: tesseract.js and
 * PDF.js, bounded before decoding) in a child process of its own, so that no file can stall or fill the
 * process that serves pages. The child has a heap limit; while it reads, its resident memory is watched
 * and a wall clock runs; past either it is killed, the reading ends "unreadable" (the employee types the
 * details) and the next receipt starts a new child. A child left large by a reading, or idle for long,
 * is stopped so that its memory goes back to the system. One reading at a time, a short queue.
 */
export interface IsolationLimits {
  /** Longest a reading may take, from when the child is ready for it. */
  timeLimitMs: number;
  /** Longest a new child may take to be ready. */
  startLimitMs: number;
  /** The child's resident memory (RSS) while reading, at most. */
  memoryCeilingBytes: number;
  /** The child's JavaScript heap (`--max-old-space-size`), in MB. */
  heapMb: number;
  /** After a reading, a child holding more than this is stopped. */
  recycleAboveBytes: number;
  /** A child with nothing to read for this long is stopped. */
  idleMs: number;
  /** Readings in progress or waiting, at most; more are answered "reader busy" at once. */
  maxWaiting: number;
}

export const DEFAULT_ISOLATION: IsolationLimits = {
  timeLimitMs: 20_000,
  startLimitMs: 20_000,
  memoryCeilingBytes: 1536 * 1024 * 1024,
  heapMb: 512,
  recycleAboveBytes: 512 * 1024 * 1024,
  idleMs: 10 * 60_000,
  maxWaiting: 8,
};

/** What the child is sent and answers (child.ts). */
export type ReadJob = { id: number; bytes: Uint8Array; contentType: string };
export type ReadAnswer = { id: number; reading: ReceiptReading } | { ready: true };

const here = path.dirname(fileURLToPath(import.meta.url));

/** The project's root: this module runs from its source or from the build (build/server/index.js). */
function projectRoot(): string {
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${here}`);
  }
}

/** The resident memory of a process, from Linux's /proc; null elsewhere (then only the heap limit holds). */
export function residentBytes(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "latin1");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export class IsolatedReceiptReader implements ReceiptReader {
  readonly name = "local (isolated)";
  private readonly limits: IsolationLimits;
  private child: { process: ChildProcess; ready: Promise<boolean> } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private jobs = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Each reading's end and why, for the logs and the tests. */
  readonly stops: { pid: number; reason: string }[] = [];
  /** The end of what the last child that stopped printed (its error, if it crashed). */
  lastOutput = "";

  constructor(limits: Partial<IsolationLimits> = {}) {
    this.limits = { ...DEFAULT_ISOLATION, ...limits };
  }

  /** The child's process id, if one is running. */
  get pid(): number | undefined {
    return this.child?.process.pid;
  }

  read(bytes: Uint8Array, contentType: string): Promise<ReceiptReading> {
    if (this.waiting >= this.limits.maxWaiting) return Promise.resolve({ kind: "unreadable", reason: "reader busy" });
    this.waiting += 1;
    const run = this.queue
      .then(() => this.readInChild(bytes, contentType))
      .catch((err: unknown): ReceiptReading => ({ kind: "unreadable", reason: String(err) }))
      .finally(() => {
        this.waiting -= 1;
      });
    this.queue = run;
    return run;
  }

  private async readInChild(bytes: Uint8Array, contentType: string): Promise<ReceiptReading> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const { process: child, ready } = this.start();
    if (!(await ready)) {
      this.stop(child, "start failed");
      return { kind: "unreadable", reason: `reader did not start: ${this.lastOutput.trim().slice(-300)}` };
    }
    const id = ++this.jobs;
    return new Promise<ReceiptReading>((resolve) => {
      let done = false;
      const finish = (reading: ReceiptReading, stopReason?: string) => {
        if (done) return;
        done = true;
        clearTimeout(clock);
        clearInterval(watch);
        child.off("message", onMessage);
        child.off("exit", onExit);
        if (stopReason) this.stop(child, stopReason);
        else if ((residentBytes(child.pid) ?? 0) > this.limits.recycleAboveBytes) this.stop(child, "recycled");
        this.idleTimer = setTimeout(() => this.stop(this.child?.process ?? null, "idle"), this.limits.idleMs);
        this.idleTimer.unref();
        resolve(reading);
      };
      const onMessage = (answer: ReadAnswer) => {
        if ("id" in answer && answer.id === id) finish(answer.reading);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        finish({ kind: "unreadable", reason: `reader stopped (${signal ?? code})` });
      const clock = setTimeout(
        () => finish({ kind: "unreadable", reason: "time limit" }, "time limit"),
        this.limits.timeLimitMs,
      );
      const watch = setInterval(() => {
        const rss = residentBytes(child.pid);
        if (rss !== null && rss > this.limits.memoryCeilingBytes)
          finish({ kind: "unreadable", reason: "memory ceiling" }, "memory ceiling");
      }, 100);
      child.on("message", onMessage);
      child.once("exit", onExit);
      if (child.exitCode !== null || child.signalCode !== null) return onExit(child.exitCode, child.signalCode);
      const job: ReadJob = { id, bytes, contentType };
      child.send(job, (err) => {
        if (err) finish({ kind: "unreadable", reason: `reader unreachable (${err.message})` }, "unreachable");
      });
    });
  }

  /** The running child, or a new one; `ready` says whether it came up within its start limit. */
  private start(): { process: ChildProcess; ready: Promise<boolean> } {
    const running = this.child?.process;
    if (this.child && running && running.exitCode === null && running.signalCode === null) return this.child;
    const root = projectRoot();
    const tsx = pathToFileURL(createRequire(path.join(root, "package.json")).resolve("tsx")).href;
    const child = fork(path.join(root, "app/.server/providers/receipt-reading/child.ts"), [], {
      cwd: root,
      execArgv: ["--import", tsx, `--max-old-space-size=${this.limits.heapMb}`],
      serialization: "advanced",
      // What it prints is kept (its last 2 KB), not passed on: a hostile file could make it print a lot.
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let printed = "";
    const keep = (chunk: Buffer) => {
      printed = (printed + chunk.toString("utf8")).slice(-2048);
    };
    for (const output of [child.stdout, child.stderr] as (Socket | null)[]) {
      output?.on("data", keep);
      output?.unref();
    }
    // The server may stop while the child lives: the child ends when its channel closes (child.ts).
    child.unref();
    child.channel?.unref();
    const ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.lastOutput = printed;
        resolve(false);
      }, this.limits.startLimitMs);
      child.on("message", (answer: ReadAnswer) => {
        if ("ready" in answer) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once("exit", () => {
        clearTimeout(timer);
        this.lastOutput = printed;
        resolve(false);
      });
    });
    child.on("exit", () => {
      if (this.child?.process === child) this.child = null;
    });
    this.child = { process: child, ready };
    return this.child;
  }

  private stop(child: ChildProcess | null, reason: string) {
    if (!child) return;
    if (this.child?.process === child) this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.pid) this.stops.push({ pid: child.pid, reason });
    child.kill("SIGKILL");
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const child = this.child?.process ?? null;
    this.stop(child, "closed");
    if (child && child.exitCode === null && child.signalCode === null)
      await new Promise((resolve) => child.once("exit", resolve));
  }
}
