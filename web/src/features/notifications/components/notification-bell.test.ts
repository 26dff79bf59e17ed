import type { Notification } from '@reelhouse/contract';
import { describe, expect, it } from 'vitest';
import { notificationText } from './notification-bell';

const base: Notification = {
  _id: 'n1abcdef',
  kind: 'new_video',
  read: false,
  createdAt: new Date().toISOString(),
  actor: { _id: 'u1abcdef', username: 'maker', fullName: 'The Maker', avatar: { url: '/a.png' } },
  video: { _id: 'v1abcdef', title: 'Night sky', thumbnail: { url: '/t.png' } },
  comment: { _id: 'c1abcdef', content: 'So good', parentId: null },
  reason: null,
};

describe('notificationText', () => {
  it('says what happened for each kind', () => {
    expect(notificationText({ ...base, comment: null })).toBe('@maker uploaded: Night sky');
    expect(notificationText({ ...base, kind: 'comment_reply' })).toBe('@maker replied to your comment: “So good”');
    expect(notificationText({ ...base, kind: 'video_comment' })).toBe('@maker commented on Night sky: “So good”');
    expect(notificationText({ ...base, kind: 'upload_ready', actor: null })).toBe('Your video is ready: Night sky');
    expect(notificationText({ ...base, kind: 'upload_failed', actor: null, reason: 'The file has no video stream' })).toBe(
      'Your upload failed: Night sky (The file has no video stream)',
    );
    expect(notificationText({ ...base, kind: 'live_started', comment: null })).toBe('The Maker is live now: Night sky');
    expect(notificationText({ ...base, kind: 'live_started', comment: null, actor: { ...base.actor!, fullName: '' } })).toBe('maker is live now: Night sky');
  });
});
