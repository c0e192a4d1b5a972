/** The support chat (issue 16 §5, spec 000 §7 "a support chat opened by a store action, token-based login"). */
export interface ChatMessage {
  id: string;
  author: "user" | "support";
  /** Plain text: always shown as text, never as HTML. */
  body: string;
  createdAt: string;
}

/** What the browser needs to load a hosted chat widget (Crisp), when that is the provider. */
export interface BrowserChat {
  provider: "crisp";
  websiteId: string;
  /** Crisp's session continuity token: stable per user, unguessable, never the user's id itself. */
  tokenId: string;
}

export interface SupportChat {
  readonly name: "sandbox" | "crisp";
  /**
   * `portal`: the conversation is kept by the portal and /support shows and posts it (works without JS);
   * `browser`: a hosted widget the browser loads with JS (`browserChat`); /support then only opens it.
   */
  readonly kind: "portal" | "browser";
  /** The user's conversation, oldest first (empty for a `browser` chat). */
  messages(userId: string): Promise<ChatMessage[]>;
  /** Posts the user's message; `context` says what it is about (`card:<id>`). Only for a `portal` chat. */
  send(userId: string, text: string, context: string | null): Promise<void>;
  /** The widget's settings for this user, or null for a `portal` chat. */
  browserChat(userId: string): BrowserChat | null;
}

/** The sandbox's automatic answer, stored as this catalogue key and translated when shown. */
export const SANDBOX_ACKNOWLEDGEMENT = "support.sandboxAcknowledgement";
