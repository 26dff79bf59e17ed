/**
 * Two things vidstack's default layout leaves short of WCAG, mended on its elements as they appear
 * (its menus are portalled outside the player, hence the whole document is watched while a player
 * is on the page). Returns the undo.
 * - The seek bar's preview frames are <img> with no alt, which screen readers read out as a file
 *   name; they are decorative (the time beside them says where the pointer is): alt="".
 * - A menu taller than the player scrolls, and its items take focus only by arrow keys: the list
 *   itself is made a tab stop (vidstack gives it -1) so that a keyboard can reach and scroll it.
 */
export function mendVidstackAccessibility(root: HTMLElement | null): (() => void) | undefined {
  if (!root || typeof MutationObserver === 'undefined') return undefined;
  const mend = () => {
    for (const img of document.querySelectorAll<HTMLImageElement>('.vds-slider-thumbnail img:not([alt]), .vds-thumbnail img:not([alt])')) img.alt = '';
    for (const list of document.querySelectorAll<HTMLElement>('.vds-menu-items[role="menu"]')) if (list.tabIndex < 0) list.tabIndex = 0;
  };
  mend();
  const observer = new MutationObserver(mend);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}
