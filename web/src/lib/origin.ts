/**
 * The host (with its port, if any) of an address on another server: what a remote channel, video
 * or comment is labelled with ("On video.example.com"). Empty when the address does not parse, so
 * that a label is left out rather than shown wrong.
 */
export function hostOf(address: string | undefined): string {
  if (!address) return '';
  try {
    return new URL(address).host;
  } catch {
    return '';
  }
}
