import { createRequire } from "node:module";
import path from "node:path";
import type Tesseract from "tesseract.js";
import { checkImage, checkPdf, MAX_PDF_PAGES } from "./bounds";
import type { ReceiptReader, ReceiptReading } from "./port";

type TesseractWorker = Tesseract.Worker;

/**
 * Receipts read on this server, offline (decision 0025): images by tesseract.js with the French
 * trained data of the `@tesseract.js-data/fra` package (no download), PDFs by their text layer (unpdf,
 * PDF.js). One tesseract worker, made on the first image and reused; images wait their turn in a queue
 * (one recognition at a time: it uses a whole core). A PDF without text (a scan) is unreadable.
 * Nothing is decoded past the bounds of `bounds.ts` (a photo's pixels, a PDF's decoded streams, its
 * first pages). The portal runs this reader in a child process of its own (`isolated.ts`, decision 0046).
 */
export class LocalReceiptReader implements ReceiptReader {
  readonly name = "local";
  private worker: Promise<TesseractWorker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** `maxWaiting`: images read or waiting at most; more are answered "unreadable" at once. */
  constructor(private readonly maxWaiting = 8) {}

  async read(bytes: Uint8Array, contentType: string): Promise<ReceiptReading> {
    try {
      if (contentType === "application/pdf") return await this.readPdf(bytes);
      if (contentType === "image/png" || contentType === "image/jpeg") return await this.readImage(bytes);
      return { kind: "unreadable", reason: `unsupported type ${contentType}` };
    } catch (err) {
      return { kind: "unreadable", reason: err instanceof Error ? err.message : String(err) };
    }
  }

  private async readPdf(bytes: Uint8Array): Promise<ReceiptReading> {
    const bounds = checkPdf(bytes);
    if (bounds.kind === "refused") return { kind: "unreadable", reason: bounds.reason };
    const { getDocumentProxy } = await import("unpdf");
    // PDF.js takes the buffer over: give it a copy. Errors only: a hostile file must not fill the logs
    // with a warning per operator.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const pages: string[] = [];
      for (let number = 1; number <= Math.min(pdf.numPages, MAX_PDF_PAGES); number++) {
        const content = await (await pdf.getPage(number)).getTextContent();
        pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join(""));
      }
      // One text, its spaces and blank lines folded as unpdf's `mergePages` does.
      const text = pages
        .join("\n")
        .replace(/[^\S\n]+/g, " ")
        .replace(/ ?\n ?/g, "\n")
        .replace(/\n{3,}/g, "\n\n");
      return text.trim() ? { kind: "read", text } : { kind: "unreadable", reason: "no text layer" };
    } finally {
      await pdf.destroy();
    }
  }

  private readImage(bytes: Uint8Array): Promise<ReceiptReading> {
    // A crowd of photos at once would only make everyone wait: past a few, say so at once.
    if (this.waiting >= this.maxWaiting) return Promise.resolve({ kind: "unreadable", reason: "reader busy" });
    const bounds = checkImage(bytes);
    if (bounds.kind === "refused") return Promise.resolve({ kind: "unreadable", reason: bounds.reason });
    this.waiting += 1;
    const run = this.queue
      .then(async (): Promise<ReceiptReading> => {
        const worker = await this.startWorker();
        try {
          const { data } = await worker.recognize(Buffer.from(bytes));
          return data.text.trim() ? { kind: "read", text: data.text } : { kind: "unreadable", reason: "no text found" };
        } catch (err) {
          // A worker that failed may be broken: the next image starts a fresh one.
          if (this.worker) {
            this.worker = null;
            await worker.terminate().catch(() => undefined);
          }
          throw err;
        }
      })
      .finally(() => {
        this.waiting -= 1;
      });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private startWorker(): Promise<TesseractWorker> {
    this.worker ??= (async () => {
      const { createWorker, OEM } = await import("tesseract.js");
      const require = createRequire(import.meta.url);
      const langPath = path.join(
        path.dirname(require.resolve("@tesseract.js-data/fra/package.json")),
        "4.0.0_best_int",
      );
      return createWorker("fra", OEM.LSTM_ONLY, {
        langPath,
        cacheMethod: "none",
        gzip: true,
        // Without a handler tesseract.js throws a failed job's error outside any promise (an uncaught
        // exception: the process would stop); the job's own promise is rejected anyway.
        errorHandler: () => undefined,
      });
    })().catch((err: unknown) => {
      this.worker = null;
      throw err;
    });
    return this.worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await this.queue;
    await (await worker.catch(() => null))?.terminate();
  }
}
