import type { Comment } from '@reelhouse/contract';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries } from '@/test/fake-api';
import { CommentItem } from './comment-item';

const comment = (more: Partial<Comment> = {}): Comment => ({
  _id: 'comment0001',
  content: 'Lovely bread',
  createdAt: new Date(Date.now() - 60_000).toISOString(),
  updatedAt: new Date().toISOString(),
  video: 'video000001',
  owner: { _id: 'owner000001', username: 'ada', fullName: 'Ada', avatar: { url: '' } },
  likesCount: 0,
  isLiked: false,
  parentId: null,
  replyCount: 0,
  isPinned: false,
  isHearted: false,
  ...more,
});

const show = (c: Comment) => {
  fakeApi(() => ({ comments: [], hasNextPage: false }));
  renderWithQueries(
    <MemoryRouter>
      <ul>
        <CommentItem comment={c} videoId="video000001" viewer={null} isVideoOwner={false} onSaved={() => {}} onDeleted={() => {}} notify={() => {}} />
      </ul>
    </MemoryRouter>,
  );
};

describe('CommentItem from another server', () => {
  it("shows its author's handle with the host, and links to where it was written", () => {
    show(
      comment({
        owner: { _id: 'owner000002', username: 'bea@127.0.0.2:7134', fullName: 'Bea', avatar: { url: '' } },
        remote: true,
        url: 'http://127.0.0.2:7134/comments/9',
      }),
    );
    expect(screen.getByRole('link', { name: '@bea@127.0.0.2:7134' }).getAttribute('href')).toBe('/channel/bea@127.0.0.2:7134');
    const origin = screen.getByRole('link', { name: 'on 127.0.0.2:7134 (opens in a new tab)' });
    expect(origin.getAttribute('href')).toBe('http://127.0.0.2:7134/comments/9');
    expect(origin.getAttribute('target')).toBe('_blank');
    expect(origin.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it("has no such link on a member's own comment", () => {
    show(comment());
    expect(screen.getByRole('link', { name: '@ada' })).toBeTruthy();
    expect(screen.queryByTestId('comment-origin')).toBeNull();
  });
});
