import { IsolatedReceiptReader } from "./isolated";
import type { ReceiptReader } from "./port";

/**
 * Receipts are read on the portal's own server (decision 0025), in a child process of their own with
 * bounded inputs, a memory ceiling and a time limit (decision 0046); no other adapter exists yet.
 */
export function createReceiptReader(): ReceiptReader {
  return new IsolatedReceiptReader();
}

export type { ReceiptReader, ReceiptReading } from "./port";
