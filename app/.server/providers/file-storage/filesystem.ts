import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { randomBytes } from "node:crypto";
import { assertStorageKey, type FileStorage } from "./port";

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

  private pathOf(key: string): string {
    assertStorageKey(key);
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
}
