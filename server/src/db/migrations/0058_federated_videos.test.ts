import { describe, expect, it } from 'vitest';
import { accountRow, siteBeforeMigration } from '../../../test/support/migration-site.js';
import { migrateToLatest } from '../migrations.js';

describe.each(['sqlite', 'postgres'] as const)('migration 0058 on %s', (kind) => {
  it('keeps every account; a sent video is kept once, outlives its video and goes with its channel', async () => {
    const { handle, drop } = await siteBeforeMigration(kind, '0058');
    try {
      const { db, dialect } = handle;
      await db.insertInto('users').values(accountRow('old1')).execute();
      await migrateToLatest(db, dialect);
      expect((await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id).toBe('old1');
      expect(await db.selectFrom('federation_sent_videos').selectAll().execute()).toEqual([]);

      // No video row is needed: the row says what followers were told, whatever became of the video.
      const sent = { video_id: 'gone-video', channel_id: 'old1', video_updated_at: 5, sent_at: 6 };
      await db.insertInto('federation_sent_videos').values(sent).execute();
      await expect(db.insertInto('federation_sent_videos').values(sent).execute()).rejects.toThrow();
      expect((await db.selectFrom('federation_sent_videos').selectAll().executeTakeFirstOrThrow()).video_updated_at).toBe(5);

      await db.deleteFrom('users').where('id', '=', 'old1').execute();
      expect(await db.selectFrom('federation_sent_videos').selectAll().execute()).toEqual([]);
    } finally {
      await handle.close();
      await drop();
    }
  });
});
