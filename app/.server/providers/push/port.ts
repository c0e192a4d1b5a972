/** A push notification to a person's mobile devices (spec 000 §7 "notifications"). */
export interface PushMessage {
  /** The person it is for: the adapter finds their devices. */
  userId: string;
  title: string;
  body: string;
  /** A path inside the portal the notification opens, when it has one. */
  path: string | null;
}

export interface PushSender {
  readonly name: string;
  send(message: PushMessage): Promise<void>;
}
