import compression from "compression";
import { constants as zlibConstants } from "node:zlib";

/**
 * Responses compressed as a browser asks: brotli at a middle quality (most of the gain for a fraction of
 * the CPU of the default, 11) with a 256 KB window (2^18; a page is under 100 KB). Brotli's default
 * window, 4 MB, is set up for every response stream: under load that cost the bench's framework-alone
 * app two thirds of its throughput (351 req/s with it, 1115 without; decision 0044). The portal's own
 * pages, which cost more to make, showed no difference beyond the run-to-run noise. Sizes are unchanged
 * (the card page: 7461 bytes either way).
 */
export function compressResponses() {
  return compression({
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
  });
}
