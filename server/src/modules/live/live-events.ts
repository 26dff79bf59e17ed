import type { LiveStatusEvent } from '@reelhouse/contract';

/**
 * What the lives module tells the rest of the site, without knowing who listens: a live's state
 * changed (its open chats show it), and a session began (the channel's subscribers hear of it).
 * The composition root wires these to the chat's bus and to the notifications.
 */
export interface LiveEvents {
  status(videoId: string, status: LiveStatusEvent['status']): Promise<void>;
  /** The first admission of an encoder in a session: not one back within the reconnect window. */
  sessionStarted(videoId: string): Promise<void>;
}
