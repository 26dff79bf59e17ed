/**
 * What services tell after a write that signed-out visitors could see: a video listed, edited,
 * hidden or deleted, a comment, a like or subscriber count, a profile, a playlist. Cached answers
 * made before it are no longer served. Called after the write has committed, never inside its
 * transaction, so that an answer made after the call cannot have read the old rows.
 */
export interface PublicChanges {
  changed(): Promise<void>;
}

/** For code that runs where nothing is cached (tools, some tests). */
export const noPublicChanges: PublicChanges = { changed: async () => {} };

/**
 * What services tell after a write to one viewer's own data that answers kept for that viewer show:
 * a notification for them stored, or theirs marked read. Called after the write has committed.
 */
export interface PersonalChanges {
  personalChanged(userId: string): Promise<void>;
}

export const noPersonalChanges: PersonalChanges = { personalChanged: async () => {} };
