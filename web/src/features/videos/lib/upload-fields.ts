import type { Visibility } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';

// What the add-video page sends besides the video itself, built in one place so that every way it
// makes a video (a finished resumable upload, or POST /videos/ in one request) sends the same fields.

export type ThumbnailSource = 'image' | 'frame';

export interface UploadChoices {
  title: string;
  description: string;
  visibility: Visibility;
  /** A `datetime-local` value in the viewer's own time zone; '' for none. Only a private video takes one. */
  schedule: string;
  thumbnailSource: ThumbnailSource;
  thumbnail: File | null;
  /** Seconds into the chosen video, when the thumbnail is a frame of it. */
  frameTime: number;
}

/** The schedule as the ISO UTC instant the server takes, or null when none is set or it applies. */
export function scheduleInstant(choices: Pick<UploadChoices, 'visibility' | 'schedule'>): string | null {
  if (choices.visibility !== 'private' || !choices.schedule) return null;
  const at = new Date(choices.schedule);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The problem with a schedule, if any: it must be a real time, still ahead. */
export function scheduleError(choices: Pick<UploadChoices, 'visibility' | 'schedule'>, now = Date.now()): string | undefined {
  if (choices.visibility !== 'private' || !choices.schedule) return undefined;
  const at = new Date(choices.schedule).getTime();
  if (Number.isNaN(at)) return i18n.t('videos:upload.scheduleInvalid');
  if (at <= now) return i18n.t('videos:upload.schedulePast');
  return undefined;
}

/** The multipart fields (and the thumbnail image, when one is used) for the new video. */
export function uploadFields(choices: UploadChoices): FormData {
  const form = new FormData();
  form.append('title', choices.title.trim());
  form.append('description', choices.description.trim());
  if (choices.thumbnailSource === 'frame') form.append('thumbnailTime', choices.frameTime.toFixed(2));
  else if (choices.thumbnail) form.append('thumbnail', choices.thumbnail);
  form.append('visibility', choices.visibility);
  const publishAt = scheduleInstant(choices);
  if (publishAt) form.append('publishAt', publishAt);
  return form;
}
