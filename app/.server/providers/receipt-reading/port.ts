/** Reads the text of a receipt (an image or a PDF) on the portal's own server: nothing leaves it. */
export type ReceiptReading = { kind: "read"; text: string } | { kind: "unreadable"; reason: string };

export interface ReceiptReader {
  readonly name: string;
  read(bytes: Uint8Array, contentType: string): Promise<ReceiptReading>;
  /** Ends any worker it started (shutdown). */
  close(): Promise<void>;
}
