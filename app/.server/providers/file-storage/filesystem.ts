import { createReadStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { randomBytes } from "node:crypto";
import { assertStorageKey, type FileStorage } from "./port";

/** A write still under its temporary name (`put`): the key it was to become, a dot, 12 hex digits, `.part`. */
const PARTIAL = /\.[0-9a-f]{12}\.part$/;
const PAGE = 1000;

/**
 * Files in a folder of the server (`data/files` by default): the embedded default, like SQLite. A key
 * is a relative path checked by `assertStorageKey` (no `..`, no absolute path), resolved under the root
 * and checked again to stay inside it. Writes go to a temporary name first, then are renamed.
 */
export class FilesystemStorage implements FileStorage {
  readonly name = "filesystem";
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** A key, or a write interrupted under its temporary name (listed by `list` so the sweep can delete it). */
  private pathOf(key: string): string {
    assertStorageKey(key.replace(PARTIAL, ""));
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error("invalid storage key");
    return full;
  }

  // The type is the database's to keep (files.content_type): a folder has no place for it.
  async put(
    key: string,
    body: Uint8Array | ReadableStream<Uint8Array>,
    _options: { contentType: string },
  ): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString("hex")}.part`;
    try {
      const data = body instanceof Uint8Array ? body : Readable.fromWeb(body as NodeReadableStream);
      await writeFile(temporary, data, { flag: "wx", mode: 0o600 });
      await rename(temporary, target);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<ReadableStream<Uint8Array> | null> {
    const file = this.pathOf(key);
    try {
      if (!(await stat(file)).isFile()) return null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    return Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<string[]> {
    const folder = this.pathOf(prefix.replace(/\/$/, ""));
    let entries;
    try {
      entries = await readdir(folder, { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    const keys = entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      // Only names the portal makes: anything else in the folder is not the sweep's to judge.
      .filter((key) => {
        try {
          this.pathOf(key);
          return true;
        } catch {
          return false;
        }
      });
    for (let start = 0; start < keys.length; start += PAGE) yield keys.slice(start, start + PAGE);
  }

  async modifiedAt(key: string): Promise<Date | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? info.mtime : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }
}
