/**
 * The bench's window into a running worker (issue 28 item 7): its V8 heap, a full garbage collection and
 * a heap snapshot, through the inspector protocol — no route and no flag in the portal itself.
 *
 * The bench starts the server with `--inspect-port=<port>`, which opens nothing: it only sets where an
 * inspector would listen, and the cluster's primary gives each worker the next port up. SIGUSR1 (Node's
 * own signal for it) then opens a worker's inspector on 127.0.0.1 when the bench wants to look. The
 * protocol travels over a WebSocket: Node 20 has no client of its own, so a minimal one is written
 * here (text frames, masked as a client must, one message per frame as the inspector sends them).
 */
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import http from "node:http";
import type { Duplex } from "node:stream";

/** process.memoryUsage() of the worker, bytes. */
export interface HeapFigures {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** One inspector session over a WebSocket. */
export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, (params: unknown) => void>();
  private buffered: Buffer = Buffer.alloc(0);

  private constructor(private readonly socket: Duplex) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    const fail = (error: Error) => {
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the inspector closed the connection")));
  }

  /** Opens a session on the inspector at `port` (its first target: the worker's main thread). */
  static async open(port: number, timeoutMs = 5000): Promise<InspectorSession> {
    const targets = JSON.parse(await get(port, "/json/list", timeoutMs)) as { webSocketDebuggerUrl: string }[];
    const url = new URL(targets[0]?.webSocketDebuggerUrl ?? "");
    const key = randomBytes(16).toString("base64");
    const socket = await new Promise<Duplex>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port,
        path: url.pathname,
        timeout: timeoutMs,
        headers: {
          Connection: "Upgrade",
          Upgrade: "websocket",
          "Sec-WebSocket-Key": key,
          "Sec-WebSocket-Version": "13",
        },
      });
      req.once("upgrade", (_res, sock, head) => {
        if (head.length) sock.unshift(head);
        resolve(sock);
      });
      req.once("response", (res) => reject(new Error(`the inspector refused the WebSocket (${res.statusCode})`)));
      req.once("timeout", () => req.destroy(new Error("the inspector did not answer")));
      req.once("error", reject);
      req.end();
    });
    return new InspectorSession(socket);
  }

  /** Sends one protocol command and waits for its result. */
  send<T = unknown>(method: string, params: object = {}): Promise<T> {
    const id = this.nextId++;
    const payload = Buffer.from(JSON.stringify({ id, method, params }));
    const mask = randomBytes(4);
    const length = payload.length;
    const header =
      length < 126
        ? Buffer.from([0x81, 0x80 | length])
        : length < 65536
          ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff])
          : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), bigEndian64(length)]);
    for (let i = 0; i < length; i++) payload[i]! ^= mask[i % 4]!;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.socket.write(Buffer.concat([header, mask, payload]));
    });
  }

  /** Calls `listener` with the params of each event `method` (one listener per event). */
  on(method: string, listener: (params: unknown) => void) {
    this.listeners.set(method, listener);
  }

  close() {
    this.socket.end(Buffer.from([0x88, 0x80, 0, 0, 0, 0]));
    this.socket.destroy();
  }

  private receive(chunk: Buffer) {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (;;) {
      const frame = readFrame(this.buffered);
      if (!frame) return;
      this.buffered = this.buffered.subarray(frame.end);
      if (frame.opcode !== 0x1) continue; // only text frames carry the protocol
      const message = JSON.parse(frame.payload.toString("utf8")) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { message: string };
      };
      if (message.id !== undefined) {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) p?.reject(new Error(message.error.message));
        else p?.resolve(message.result);
      } else if (message.method) this.listeners.get(message.method)?.(message.params);
    }
  }
}

function bigEndian64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/** A whole unmasked frame at the start of `data` (the server's frames are never masked), or null. */
function readFrame(data: Buffer): { opcode: number; payload: Buffer; end: number } | null {
  if (data.length < 2) return null;
  const opcode = data[0]! & 0x0f;
  let length = data[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (data.length < 4) return null;
    length = data.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (data.length < 10) return null;
    length = Number(data.readBigUInt64BE(2));
    offset = 10;
  }
  if (data.length < offset + length) return null;
  return { opcode, payload: data.subarray(offset, offset + length), end: offset + length };
}

function get(port: number, urlPath: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve(body));
    });
    req.once("timeout", () => req.destroy(new Error(`no answer from the inspector on port ${port}`)));
    req.once("error", reject);
  });
}

/** Evaluates `expression` in the worker's main context and returns its JSON value. */
async function evaluate<T>(session: InspectorSession, expression: string): Promise<T> {
  const { result, exceptionDetails } = await session.send<{
    result: { value?: unknown };
    exceptionDetails?: { text: string };
  }>("Runtime.evaluate", { expression, returnByValue: true });
  if (exceptionDetails) throw new Error(`the worker could not evaluate ${expression}: ${exceptionDetails.text}`);
  return result.value as T;
}

/**
 * The inspector of each worker, opened with SIGUSR1: the workers' ports are `basePort` + 1, + 2… (the
 * cluster's numbering, which goes on counting when a worker is replaced; `basePort` itself when the
 * server runs alone, without a primary), so each open port is asked for its process id and matched to
 * the worker's. Returns the port of each worker whose inspector answered.
 */
export async function openWorkerInspectors(
  workerPids: number[],
  basePort: number,
  portsToTry = 16,
): Promise<Map<number, number>> {
  for (const pid of workerPids) process.kill(pid, "SIGUSR1");
  const byPid = new Map<number, number>();
  const deadline = Date.now() + 5000;
  while (byPid.size < workerPids.length && Date.now() < deadline) {
    for (let port = basePort; port <= basePort + portsToTry; port++) {
      if ([...byPid.values()].includes(port)) continue;
      try {
        const session = await InspectorSession.open(port, 1000);
        try {
          const pid = await evaluate<number>(session, "process.pid");
          if (workerPids.includes(pid)) byPid.set(pid, port);
        } finally {
          session.close();
        }
      } catch {
        // not open (yet), or not a worker's
      }
    }
    if (byPid.size < workerPids.length) await new Promise((r) => setTimeout(r, 200));
  }
  return byPid;
}

async function withSession<T>(port: number, work: (session: InspectorSession) => Promise<T>): Promise<T> {
  const session = await InspectorSession.open(port);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}

/** The worker's process.memoryUsage(). */
export const heapFigures = (port: number) =>
  withSession(port, (s) => evaluate<HeapFigures>(s, "process.memoryUsage()"));

/** A full garbage collection in the worker (as DevTools' "collect garbage"), then its figures. */
export const collectGarbage = (port: number) =>
  withSession(port, async (s) => {
    await s.send("HeapProfiler.collectGarbage");
    return evaluate<HeapFigures>(s, "process.memoryUsage()");
  });

/** Writes a heap snapshot of the worker to `file` (V8 collects garbage first, as for any snapshot). */
export const writeHeapSnapshot = (port: number, file: string) =>
  withSession(port, async (s) => {
    const out = createWriteStream(file);
    s.on("HeapProfiler.addHeapSnapshotChunk", (params) => out.write((params as { chunk: string }).chunk));
    await s.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  });
