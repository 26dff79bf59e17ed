import { useTranslation } from 'react-i18next';
import { useObjectUrl } from '@/lib/use-object-url';
import type { ThumbnailSource } from '../lib/upload-fields';
import { ChoiceGroup } from './choice-group';
import { FramePicker } from './frame-picker';
import { ThumbnailPicker } from './thumbnail-picker';

/**
 * The new video's thumbnail: an uploaded image, or a frame of the chosen video picked on a
 * scrubber over the local file (nothing is sent until upload; the server cuts the same frame).
 */
export function ThumbnailChoice({
  source,
  onSource,
  videoFile,
  image,
  imageError,
  onImage,
  frameTime,
  onFrameTime,
  disabled,
}: {
  source: ThumbnailSource;
  onSource: (source: ThumbnailSource) => void;
  videoFile: File | null;
  image: File | null;
  imageError?: string;
  onImage: (file: File) => void;
  frameTime: number;
  onFrameTime: (seconds: number) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('videos');
  const videoUrl = useObjectUrl(source === 'frame' ? videoFile : null);
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <ChoiceGroup
        legend={t('thumbnail.source')}
        name="thumbnail-source"
        value={source}
        disabled={disabled}
        onChange={onSource}
        options={[
          { value: 'image', label: t('thumbnail.uploadImage') },
          { value: 'frame', label: t('thumbnail.pickFrame') },
        ]}
      />
      {source === 'image' ? (
        <ThumbnailPicker label={t('fields.thumbnail')} file={image} error={imageError} disabled={disabled} onChoose={onImage} />
      ) : videoUrl ? (
        <FramePicker src={videoUrl} value={frameTime} onChange={(s) => onFrameTime(s ?? 0)} legend={t('thumbnail.frameLegend')} />
      ) : (
        <p className="rounded-xl border-2 border-dashed border-neutral-300 px-3 py-6 text-center text-sm text-neutral-500 dark:border-neutral-700 dark:text-neutral-400">
          {t('thumbnail.chooseVideoFirst')}
        </p>
      )}
    </div>
  );
}
