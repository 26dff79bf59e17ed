/**
 * The kept counters, recomputed from the rows in one pass each, in SQL both databases run. They
 * follow the server's rules: a channel's videos_count counts its listed videos, public_videos all
 * listed videos.
 */
export const recountStatements = [
  `UPDATE users SET videos_count = c.n FROM (SELECT owner_id, count(*) AS n FROM videos WHERE listed = 1 GROUP BY owner_id) AS c WHERE users.id = c.owner_id`,
  `UPDATE users SET subscribers_count = c.n FROM (SELECT channel_id, count(*) AS n FROM subscriptions GROUP BY channel_id) AS c WHERE users.id = c.channel_id`,
  `UPDATE videos SET likes_count = c.n FROM (SELECT target_id, count(*) AS n FROM likes WHERE target_type = 'video' GROUP BY target_id) AS c WHERE videos.id = c.target_id`,
  `UPDATE videos SET comments_count = c.n FROM (SELECT video_id, count(*) AS n FROM comments GROUP BY video_id) AS c WHERE videos.id = c.video_id`,
  `DELETE FROM counters WHERE key = 'public_videos'`,
  `INSERT INTO counters (key, value) SELECT 'public_videos', count(*) FROM videos WHERE listed = 1`,
];

export const tableCounts = {
  users: 'SELECT count(*) AS n FROM users',
  videos: 'SELECT count(*) AS n FROM videos',
  listedVideos: "SELECT value AS n FROM counters WHERE key = 'public_videos'",
  likes: 'SELECT count(*) AS n FROM likes',
  comments: 'SELECT count(*) AS n FROM comments',
  subscriptions: 'SELECT count(*) AS n FROM subscriptions',
  playlists: 'SELECT count(*) AS n FROM playlists',
  watchHistory: 'SELECT count(*) AS n FROM watch_history',
  reports: 'SELECT count(*) AS n FROM reports',
};
