import type { CreatePlaylistBody, Playlist, PlaylistDetail, UpdatePlaylistBody } from '@reelhouse/contract';
import { notFound } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import { isVisibleTo } from '../videos/videos.repository.js';
import { VideoPresenter } from '../videos/videos.presenter.js';
import type { PlaylistRow, PlaylistsRepository } from './playlists.repository.js';

/**
 * Playlists are private to read one by one (only the owner opens a playlist), public to list per
 * user. Either way a video the caller may not see is left out, and counts count what is shown.
 */
export class PlaylistsService {
  private readonly presenter: VideoPresenter;

  constructor(private readonly deps: { playlists: PlaylistsRepository; storage: Storage; now?: () => number }) {
    this.presenter = new VideoPresenter(deps.storage);
  }

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  private present(row: PlaylistRow, videoIds: string[]): Playlist {
    return {
      _id: row.id,
      name: row.name,
      description: row.description,
      owner: row.owner_id,
      videosCount: videoIds.length,
      videos: videoIds,
      createdAt: toIso(Number(row.created_at)),
      updatedAt: toIso(Number(row.updated_at)),
    };
  }

  /** The caller's own playlist; anyone else's is missing to them. */
  private async owned(playlistId: string, userId: string): Promise<PlaylistRow> {
    const row = await this.deps.playlists.findById(playlistId);
    if (!row || row.owner_id !== userId) throw notFound('Playlist');
    return row;
  }

  private async withIds(row: PlaylistRow, viewerId: string): Promise<Playlist> {
    const ids = await this.deps.playlists.visibleVideoIds([row.id], viewerId);
    return this.present(row, ids.get(row.id) ?? []);
  }

  async create(userId: string, body: CreatePlaylistBody): Promise<Playlist> {
    const now = this.now();
    const row: PlaylistRow = {
      id: newId(), owner_id: userId, name: body.name, description: body.description, videos_count: 0, created_at: now, updated_at: now,
    };
    await this.deps.playlists.insert(row);
    return this.present(row, []);
  }

  async detail(playlistId: string, userId: string): Promise<PlaylistDetail> {
    const row = await this.owned(playlistId, userId);
    const videos = (await this.deps.playlists.visibleVideos(row.id, userId)).map((v) => this.presenter.summary(v));
    return { ...this.present(row, []), videosCount: videos.length, videos };
  }

  async update(playlistId: string, userId: string, body: UpdatePlaylistBody): Promise<Playlist> {
    const row = await this.owned(playlistId, userId);
    await this.deps.playlists.update(row.id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      updated_at: this.now(),
    });
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, userId);
  }

  async remove(playlistId: string, userId: string): Promise<void> {
    await this.owned(playlistId, userId);
    await this.deps.playlists.delete(playlistId);
  }

  async addVideo(playlistId: string, videoId: string, userId: string): Promise<Playlist> {
    const row = await this.owned(playlistId, userId);
    const video = await this.deps.playlists.findVideoAccess(videoId);
    if (!video || !isVisibleTo(video, userId)) throw notFound('Video');
    await this.deps.playlists.addVideo(row.id, videoId, this.now());
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, userId);
  }

  /** Taking out a video that is not there is a no-op, so a repeated click does no harm. */
  async removeVideo(playlistId: string, videoId: string, userId: string): Promise<Playlist> {
    const row = await this.owned(playlistId, userId);
    await this.deps.playlists.removeVideo(row.id, videoId, this.now());
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, userId);
  }

  async listForUser(ownerId: string, viewerId: string | null): Promise<Playlist[]> {
    if (!(await this.deps.playlists.userExists(ownerId))) throw notFound('User');
    const rows = await this.deps.playlists.listByOwner(ownerId);
    // What a visitor sees in someone's playlists is what they could watch themselves.
    const ids = await this.deps.playlists.visibleVideoIds(rows.map((r) => r.id), viewerId);
    return rows.map((r) => this.present(r, ids.get(r.id) ?? []));
  }
}
