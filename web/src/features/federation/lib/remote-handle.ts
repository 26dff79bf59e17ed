/**
 * Whether a search is a channel of another server: `@channel@other.site`, `channel@other.site` (the
 * shapes the lookup takes, as the contract writes them) or an actor's address. Kept apart from the
 * lookup's components so that the home page can ask without loading them.
 */
const HANDLE = /^@?[^\s@/]+@[a-z0-9.-]+(:\d{1,5})?$/i;
const ADDRESS = /^https?:\/\/\S+$/i;

export function looksLikeRemoteHandle(search: string): boolean {
  const text = search.trim();
  return HANDLE.test(text) || ADDRESS.test(text);
}

/** A handle as people read it, with its leading @ (`bea@video.example` is `@bea@video.example`); an address stays as it is. */
export function displayHandle(search: string): string {
  const text = search.trim();
  return ADDRESS.test(text) || text.startsWith('@') ? text : `@${text}`;
}
