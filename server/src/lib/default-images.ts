/** Served from server/assets under /static/ for accounts that have not chosen their own images. */
export const DEFAULT_AVATAR_URL = '/static/default-avatar.svg';
export const DEFAULT_COVER_URL = '/static/default-cover.svg';
