/** A push notification to a person's devices: the mobile app's and the browsers' they subscribed (spec 000 §7). */
export interface PushMessage {
  /** The person it is for: the adapter finds their devices. */
  userId: string;
  title: string;
  body: string;
  /** A path inside the portal the notification opens, when it has one. */
  path: string | null;
}

/** Sends a push to every device of the person; never throws because a device is gone or its service is down. */
export interface PushSender {
  readonly name: string;
  send(message: PushMessage): Promise<void>;
}
