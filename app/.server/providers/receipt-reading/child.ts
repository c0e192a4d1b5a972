/**
 * The receipt reader's own process (isolated.ts, decision 0046): reads what the server sends, one at a
 * time, with the local reader, and answers. It holds nothing else: killing it loses no data.
 */
import type { ReadAnswer, ReadJob } from "./isolated";
import { LocalReceiptReader } from "./local";

const reader = new LocalReceiptReader();

process.on("message", (job: ReadJob) => {
  void reader.read(new Uint8Array(job.bytes), job.contentType).then((reading) => {
    const answer: ReadAnswer = { id: job.id, reading };
    process.send?.(answer);
  });
});

// Ready once the PDF reader is loaded (the photo reader starts with the first photo).
void import("unpdf").then(() => process.send?.({ ready: true } satisfies ReadAnswer));

// The server is gone (stopped, or crashed): nothing is left to read for.
process.on("disconnect", () => process.exit(0));
