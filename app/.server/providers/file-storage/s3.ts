import { createS3FileStorage } from "@remix-run/file-storage-s3";
import { assertStorageKey, bytesOf, type FileStorage } from "./port";

export interface S3Options {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Another fetch (tests watch the requests). */
  fetch?: typeof globalThis.fetch;
}

/**
 * An S3-compatible bucket (AWS S3, MinIO, Scaleway, OVH…) through `@remix-run/file-storage-s3`, which
 * signs every request (SigV4, aws4fetch). Objects are written without an ACL, so they stay private: the
 * bucket's default; nothing is ever public or pre-signed, the portal streams them to their owner.
 */
export class S3Storage implements FileStorage {
  readonly name = "s3";
  private readonly storage: ReturnType<typeof createS3FileStorage>;

  constructor(options: S3Options) {
    this.storage = createS3FileStorage({
      endpoint: options.endpoint,
      bucket: options.bucket,
      region: options.region,
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      fetch: options.fetch,
    });
  }

  async put(key: string, body: Uint8Array | ReadableStream<Uint8Array>, options: { contentType: string }) {
    assertStorageKey(key);
    const bytes = await bytesOf(body);
    await this.storage.set(key, new File([bytes as Uint8Array<ArrayBuffer>], "receipt", { type: options.contentType }));
  }

  async get(key: string): Promise<ReadableStream<Uint8Array> | null> {
    assertStorageKey(key);
    const file = await this.storage.get(key);
    return file ? (file.stream() as ReadableStream<Uint8Array>) : null;
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await this.storage.remove(key);
  }

  // ListObjectsV2, a thousand keys a request.
  async *list(prefix: string): AsyncIterable<string[]> {
    assertStorageKey(prefix.replace(/\/$/, ""));
    let cursor: string | undefined;
    do {
      const page = await this.storage.list({ prefix, limit: 1000, cursor });
      if (page.files.length) yield page.files.map((file) => file.key);
      cursor = page.cursor;
    } while (cursor);
  }

  /**
   * The time `put` wrote (the File's lastModified the library keeps in the object's metadata, so the portal's
   * clock), else the bucket's own LastModified: a listing of that one key with its HEAD.
   */
  async modifiedAt(key: string): Promise<Date | null> {
    assertStorageKey(key);
    const page = await this.storage.list({ prefix: key, limit: 1, includeMetadata: true });
    const found = page.files[0];
    return found && found.key === key ? new Date(found.lastModified) : null;
  }
}
