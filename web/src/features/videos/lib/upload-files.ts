// Checks and labels for the files chosen on the upload page. The server checks the same rules
// again (and reads the real container); these exist so the page can answer before any byte is sent.

import { MAX_TITLE_LENGTH } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';

export const VIDEO_ACCEPT = '.mp4,video/mp4';
export const IMAGE_ACCEPT = '.png,.jpeg,.jpg,.webp,image/png,image/jpeg,image/webp';
/** Why a chosen video is refused, in the interface's language at the moment it is asked for. */
export function videoTypeMessage(): string {
  return i18n.t('videos:upload.videoType');
}

export function thumbnailTypeMessage(): string {
  return i18n.t('videos:upload.thumbnailType');
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/webp'];

type FileLike = Pick<File, 'name' | 'type'>;

/** An mp4 by its MIME type, or by its extension when the browser gives no type (drops from some
 *  file managers do). A file that names another type is refused even with an .mp4 name. */
export function isMp4(file: FileLike): boolean {
  if (file.type) return file.type === 'video/mp4';
  return /\.mp4$/i.test(file.name);
}

export function isThumbnailImage(file: FileLike): boolean {
  if (file.type) return IMAGE_TYPES.includes(file.type);
  return /\.(png|jpe?g|webp)$/i.test(file.name);
}

/** "my_holiday_clip.final.mp4" -> "my holiday clip.final"; "sunset-over-the-bay.mp4" -> "sunset over the bay".
 *  Underscores always become spaces; hyphens only in a name with no spaces (a slug), so
 *  "2024-05-01 trip" keeps its date. Cut to the title limit at a word boundary where possible. */
export function titleFromFileName(name: string, max = MAX_TITLE_LENGTH): string {
  let base = name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  base = base.replace(/_+/g, ' ');
  if (!/\s/.test(base)) base = base.replace(/-+/g, ' ');
  base = base.replace(/\s+/g, ' ').trim();
  if (base.length <= max) return base;
  const cut = base.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).trim();
}

/** 1920x1080 -> "1920×1080 · 1080p"; a portrait 1080x1920 is also 1080p (the short side names it). */
export function formatResolution(width: number, height: number): string {
  if (!(width > 0 && height > 0)) return '';
  const short = Math.min(width, height);
  const label = short >= 2160 ? '4K' : `${short}p`;
  return `${width}×${height} · ${label}`;
}

/** What the upload page's two file choosers (video and thumbnail) take. */
export interface FilePickerProps {
  label: string;
  file: File | null;
  error?: string;
  disabled?: boolean;
  onChoose: (file: File) => void;
}
