import { LocalReceiptReader } from "./local";
import type { ReceiptReader } from "./port";

/** Receipts are read on the portal's own server (decision 0025); no other adapter exists yet. */
export function createReceiptReader(): ReceiptReader {
  return new LocalReceiptReader();
}

export type { ReceiptReader, ReceiptReading } from "./port";
