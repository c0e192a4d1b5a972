import compression from "compression";
import { constants as zlibConstants } from "node:zlib";

/**
 * Responses compressed as a browser asks: brotli at a middle quality (most of the gain for a fraction of
 * the CPU of the default, 11) with a 256 KB window (2^18; a page is under 100 KB). Brotli's default
 * window, 4 MB, is allocated and cleared for every response: under load that cost more than the
 * compression itself (the bench's framework-alone app answered 351 req/s with it, 1115 without;
 * decision 0039). Sizes are unchanged (the card page: 7461 bytes either way).
 */
export function compressResponses() {
  return compression({
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
  });
}
