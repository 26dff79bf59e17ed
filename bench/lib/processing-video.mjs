/**
 * A video row as the upload route leaves it (processing, its source stored, nothing made yet), for
 * the benchmarks that drive the pipeline directly instead of uploading through the API.
 */
export async function insertProcessingVideo(db, { id, ownerId, sourceKey, duration = 0 }) {
  const now = Date.now();
  await db
    .insertInto('videos')
    .values({
      id,
      owner_id: ownerId,
      title: 'Bench',
      description: '',
      owner_text: 'bench',
      duration,
      views: 0,
      status: 'processing',
      progress: 0,
      failure_reason: null,
      visibility: 'public',
      publish_at: null,
      hidden_at: null,
      hidden_reason: null,
      listed: 0,
      watchable: 0,
      width: null,
      height: null,
      source_key: sourceKey,
      video_key: null,
      hls_key: null,
      storyboard_key: null,
      thumbnail_key: `videos/${id}/thumbnail.webp`,
      source_bytes: 0,
      likes_count: 0,
      comments_count: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
