import type { CreatePlaylistBody, Playlist, PlaylistDetail, UpdatePlaylistBody } from '@reelhouse/contract';
import { notFound, unauthorized } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import type { DefaultImages } from '../../lib/default-images.js';
import type { Storage } from '../../storage/storage.js';
import { canWatch, type Viewer } from '../../db/video-access.js';
import { VideoPresenter } from '../videos/videos.presenter.js';
import type { PlaylistRow, PlaylistsRepository, ShownVideo } from './playlists.repository.js';
import type { PublicChanges } from '../../lib/public-changes.js';

/**
 * A playlist is private (its owner only), unlisted (anyone who has its link) or public (also listed
 * on the owner's channel). Whoever reads it sees only the videos they could watch themselves, and
 * counts count what is shown.
 */
export class PlaylistsService {
  private readonly presenter: VideoPresenter;

  constructor(
    private readonly deps: { playlists: PlaylistsRepository; storage: Storage; defaultImages?: DefaultImages; changes: PublicChanges; now?: () => number },
  ) {
    this.presenter = new VideoPresenter(deps.storage, deps.defaultImages);
  }

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  private present(row: PlaylistRow, shown: ShownVideo[]): Playlist {
    return {
      _id: row.id,
      name: row.name,
      description: row.description,
      owner: row.owner_id,
      visibility: row.visibility,
      videosCount: shown.length,
      videos: shown.map((v) => v.id),
      thumbnail: shown[0] ? { url: this.deps.storage.url(shown[0].thumbnailKey) } : null,
      createdAt: toIso(Number(row.created_at)),
      updatedAt: toIso(Number(row.updated_at)),
    };
  }

  /** The caller's own playlist; anyone else's is missing to them. */
  private async owned(playlistId: string, user: Viewer): Promise<PlaylistRow> {
    const row = await this.deps.playlists.findById(playlistId);
    if (!row || row.owner_id !== user.id) throw notFound('Playlist');
    return row;
  }

  private async withIds(row: PlaylistRow, viewer: Viewer): Promise<Playlist> {
    const ids = await this.deps.playlists.visibleVideoIds([row.id], viewer);
    return this.present(row, ids.get(row.id) ?? []);
  }

  async create(user: Viewer, body: CreatePlaylistBody): Promise<Playlist> {
    const now = this.now();
    const row: PlaylistRow = {
      id: newId(),
      owner_id: user.id,
      name: body.name,
      description: body.description,
      visibility: 'private',
      videos_count: 0,
      created_at: now,
      updated_at: now,
    };
    await this.deps.playlists.insert(row);
    await this.deps.changes.changed();
    return this.present(row, []);
  }

  /**
   * The owner always reads their playlist; anyone else a public or unlisted one. A signed-out caller
   * asking for one they may not read gets 401, as before playlists could be shared (so a client
   * whose access token lapsed refreshes and retries); a signed-in one gets 404, as for a missing id.
   */
  async detail(playlistId: string, viewer: Viewer | null): Promise<PlaylistDetail> {
    const row = await this.deps.playlists.findById(playlistId);
    const readable = row && (row.owner_id === viewer?.id || row.visibility !== 'private');
    if (!readable) throw viewer ? notFound('Playlist') : unauthorized('Unauthorized request');
    const [rows, owner] = await Promise.all([this.deps.playlists.visibleVideos(row.id, viewer), this.deps.playlists.findOwnerProfile(row.owner_id)]);
    if (!owner) throw notFound('Playlist');
    const videos = rows.map((v) => this.presenter.summary(v));
    return {
      ...this.present(
        row,
        rows.map((v) => ({ id: v.id, thumbnailKey: v.thumbnail_key })),
      ),
      videos,
      ownerProfile: this.presenter.owner({
        owner_id: owner.id,
        owner_username: owner.username,
        owner_full_name: owner.full_name,
        owner_avatar_key: owner.avatar_key,
      }),
    };
  }

  async update(playlistId: string, user: Viewer, body: UpdatePlaylistBody): Promise<Playlist> {
    const row = await this.owned(playlistId, user);
    await this.deps.playlists.update(row.id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.visibility !== undefined ? { visibility: body.visibility } : {}),
      updated_at: this.now(),
    });
    await this.deps.changes.changed();
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, user);
  }

  async remove(playlistId: string, user: Viewer): Promise<void> {
    await this.owned(playlistId, user);
    await this.deps.playlists.delete(playlistId);
    await this.deps.changes.changed();
  }

  async addVideo(playlistId: string, videoId: string, user: Viewer): Promise<Playlist> {
    const row = await this.owned(playlistId, user);
    const video = await this.deps.playlists.findVideoAccess(videoId);
    if (!video || !canWatch(video, user)) throw notFound('Video');
    await this.deps.playlists.addVideo(row.id, videoId, this.now());
    await this.deps.changes.changed();
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, user);
  }

  /**
   * Taking out a video that is not in the playlist is a no-op, so a repeated click does no harm; a
   * video that does not exist at all is a 404, as for adding. Whether the caller may still watch it
   * does not matter: a video gone private must stay removable.
   */
  async removeVideo(playlistId: string, videoId: string, user: Viewer): Promise<Playlist> {
    const row = await this.owned(playlistId, user);
    if (!(await this.deps.playlists.findVideoAccess(videoId))) throw notFound('Video');
    await this.deps.playlists.removeVideo(row.id, videoId, this.now());
    await this.deps.changes.changed();
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, user);
  }

  /** The owner lists all their playlists; anyone else only the public ones. */
  async listForUser(ownerId: string, viewer: Viewer | null): Promise<Playlist[]> {
    if (!(await this.deps.playlists.userExists(ownerId))) throw notFound('User');
    const rows = await this.deps.playlists.listByOwner(ownerId, { publicOnly: viewer?.id !== ownerId });
    // What a visitor sees in someone's playlists is what they could watch themselves.
    const ids = await this.deps.playlists.visibleVideoIds(
      rows.map((r) => r.id),
      viewer,
    );
    return rows.map((r) => this.present(r, ids.get(r.id) ?? []));
  }
}
