/**
 * Where uploaded files (receipts) are kept. Keys are made by the portal (random, never from a name the
 * user sent); objects are private: only the portal reads them back, for their owner.
 */
export interface FileStorage {
  readonly name: string;
  put(key: string, body: Uint8Array | ReadableStream<Uint8Array>, options: { contentType: string }): Promise<void>;
  /** The stored bytes as a stream, or null when nothing is stored under the key. */
  get(key: string): Promise<ReadableStream<Uint8Array> | null>;
  /** Removes the object; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every key stored under the prefix (e.g. `receipts/`), a page at a time, in no promised order: the orphan
   * sweep compares them with the files' rows. The filesystem also lists its interrupted writes (`….part`).
   */
  list(prefix: string): AsyncIterable<string[]>;
  /** When the object was written (the portal's clock), or null when nothing is stored under the key. */
  modifiedAt(key: string): Promise<Date | null>;
}

/** The keys the adapters accept: what `newStorageKey` makes, nothing that could climb out of a folder. */
const KEY = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,64}){0,3}$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key)) throw new Error("invalid storage key");
}

/** Reads a body wholly (the adapters that cannot stream a request body: S3 needs its length). */
export async function bytesOf(body: Uint8Array | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}
