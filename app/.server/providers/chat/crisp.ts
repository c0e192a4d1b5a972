import { createHmac } from "node:crypto";
import type { BrowserChat, ChatMessage, SupportChat } from "./port";

/**
 * Crisp (crisp-sdk-web): the conversation lives at Crisp and the widget is loaded by the browser, with JS
 * only (app/components/CrispChat.tsx). The user is identified by a token id derived from their id with the
 * portal's secret (Crisp "session continuity"), so their conversation follows them across devices and
 * nobody can guess another user's token.
 */
export class CrispSupportChat implements SupportChat {
  readonly name = "crisp";
  readonly kind = "browser";
  constructor(private readonly options: { websiteId: string; secret: string }) {}

  messages(): Promise<ChatMessage[]> {
    return Promise.resolve([]);
  }

  send(): Promise<void> {
    return Promise.reject(new Error("Crisp conversations are posted by the browser widget"));
  }

  browserChat(userId: string): BrowserChat {
    const tokenId = createHmac("sha256", this.options.secret).update(`crisp:${userId}`).digest("hex");
    return { provider: "crisp", websiteId: this.options.websiteId, tokenId };
  }
}
