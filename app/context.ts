import { createContext } from "react-router";

/** Per-request facts set by server.ts before React Router runs (see server.ts getLoadContext). */
export interface RequestInfo {
  /** The Content-Security-Policy nonce for this response's inline scripts and styles. */
  nonce: string;
}

export const requestInfoContext = createContext<RequestInfo>({ nonce: "" });
