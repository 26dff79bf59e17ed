/** Served from server/assets under /static/ for accounts that have not chosen their own images. */
export const DEFAULT_AVATAR_URL = '/static/default-avatar.svg';
export const DEFAULT_COVER_URL = '/static/default-cover.svg';

export interface DefaultImages {
  avatar: string;
  cover: string;
}

/** With a public URL set the defaults are absolute, so a client on another origin can load them. */
export function defaultImages(publicUrl: string | null = null): DefaultImages {
  const base = publicUrl ?? '';
  return { avatar: base + DEFAULT_AVATAR_URL, cover: base + DEFAULT_COVER_URL };
}
