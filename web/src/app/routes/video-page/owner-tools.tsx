import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { VideoDetail } from '@reelhouse/contract';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EditIcon, TrashIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { CaptionsManager } from '@/features/captions/components/captions-manager';
import { useDeleteVideo, useTogglePublish } from '@/features/videos/api/videos.api';
import { EditVideoDialog } from '@/features/videos/components/edit-video-dialog';
import { errorMessage } from '@/lib/api-client';

/** What only the video's owner sees under the player: edit, delete and the publish switch. */
export function OwnerTools({ video, ownerUsername }: { video: VideoDetail; ownerUsername: string }) {
  const { t } = useTranslation('app');
  const toast = useToast();
  const navigate = useNavigate();
  const del = useDeleteVideo(video._id);
  const publish = useTogglePublish(video._id);
  const [editOpen, setEditOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [captionsOpen, setCaptionsOpen] = useState(false);
  // The publish switch moves at once and goes back if the server refuses.
  const [publishedOverride, setPublishedOverride] = useState<boolean | null>(null);
  const published = publishedOverride ?? video.isPublished;

  async function onDelete() {
    try {
      await del.mutateAsync();
      toast.success(t('ownerTools.deleted'));
      navigate(`/${ownerUsername}`);
    } catch {
      toast.error(t('ownerTools.deleteFailed'));
    } finally {
      setConfirmDelete(false);
    }
  }

  async function onTogglePublish() {
    const next = !published;
    setPublishedOverride(next);
    try {
      await publish.mutateAsync();
      toast.success(next ? t('ownerTools.published') : t('ownerTools.unpublished'));
    } catch (err) {
      toast.error(errorMessage(err, t('ownerTools.publishFailed')));
    } finally {
      setPublishedOverride(null);
    }
  }

  return (
    <>
      <div className="mt-3 flex flex-wrap items-center gap-2 rounded-xl border border-neutral-200 p-2 dark:border-neutral-800">
        <span className="px-2 text-xs font-semibold uppercase text-neutral-500">{t('ownerTools.yourVideo')}</span>
        <Button size="sm" onClick={() => setEditOpen(true)}>
          <EditIcon width={16} height={16} /> {t('ownerTools.edit')}
        </Button>
        <Button size="sm" onClick={() => setConfirmDelete(true)}>
          <TrashIcon width={16} height={16} /> {t('ownerTools.delete')}
        </Button>
        <Button size="sm" aria-expanded={captionsOpen} onClick={() => setCaptionsOpen((o) => !o)}>
          {video.captions.length ? t('ownerTools.captionsCount', { count: video.captions.length }) : t('ownerTools.captions')}
        </Button>
        <label className="ms-auto flex cursor-pointer items-center gap-2 px-2 text-sm">
          <input
            type="checkbox"
            role="switch"
            className="h-4 w-4 accent-rose-600"
            checked={published}
            disabled={publish.isPending}
            onChange={onTogglePublish}
            aria-checked={published}
          />
          {t('ownerTools.publishedSwitch')}
        </label>
      </div>
      {captionsOpen && <CaptionsManager videoId={video._id} captions={video.captions} notify={(m, k) => toast.show(m, k)} />}
      <EditVideoDialog video={video} open={editOpen} onClose={() => setEditOpen(false)} notify={(m, k) => toast.show(m, k)} />
      <ConfirmDialog
        open={confirmDelete}
        title={t('ownerTools.deleteTitle')}
        message={t('ownerTools.deleteMessage', { title: video.title })}
        confirmLabel={t('ownerTools.delete')}
        busy={del.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirmDelete(false)}
      />
    </>
  );
}
