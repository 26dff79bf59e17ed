import { multipart } from '../support/test-app.js';
import type { RouteFixture, World } from './types.js';

/** A video of a fresh owner with an English caption, and a way to read its captions back. */
async function captionedVideo(w: World) {
  const owner = await w.user();
  const id = await w.video(owner);
  const res = await w.call({
    method: 'POST',
    url: `/api/v1/videos/${id}/captions`,
    payload: await multipart({ language: 'en', label: 'English' }, { file: 'captions.srt' }),
    as: owner,
  });
  if (res.statusCode !== 201) throw new Error(`caption upload failed: ${res.statusCode} ${res.body}`);
  const readBack = () => w.t.ctx.db.selectFrom('captions').selectAll().where('video_id', '=', id).execute();
  return { owner, id, captionId: res.data._id as string, readBack };
}

export const captionsFixtures: Record<string, RouteFixture> = {
  'POST /api/v1/videos/:id/captions': {
    access: 'owner',
    adminsToo: true,
    multipart: true,
    async valid(w) {
      const { owner, id, readBack } = await captionedVideo(w);
      return { as: owner, status: 201, params: { id }, fields: { language: 'pt-BR', label: 'Português' }, files: { file: 'captions.srt' }, readBack };
    },
  },
  'DELETE /api/v1/videos/:id/captions/:captionId': {
    access: 'owner',
    adminsToo: true,
    async valid(w) {
      const { owner, id, captionId, readBack } = await captionedVideo(w);
      return { as: owner, status: 200, params: { id, captionId }, readBack };
    },
  },
};
