import type { CreatePlaylistBody, Playlist, PlaylistDetail, UpdatePlaylistBody } from '@reelhouse/contract';
import { notFound } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import type { DefaultImages } from '../../lib/default-images.js';
import type { Storage } from '../../storage/storage.js';
import { canWatch, type Viewer } from '../videos/video-access.js';
import { VideoPresenter } from '../videos/videos.presenter.js';
import type { PlaylistRow, PlaylistsRepository } from './playlists.repository.js';

/**
 * Playlists are private to read one by one (only the owner opens a playlist), public to list per
 * user. Either way a video the caller may not see is left out, and counts count what is shown.
 */
export class PlaylistsService {
  private readonly presenter: VideoPresenter;

  constructor(private readonly deps: { playlists: PlaylistsRepository; storage: Storage; defaultImages?: DefaultImages; now?: () => number }) {
    this.presenter = new VideoPresenter(deps.storage, deps.defaultImages);
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
      id: newId(), owner_id: user.id, name: body.name, description: body.description, videos_count: 0, created_at: now, updated_at: now,
    };
    await this.deps.playlists.insert(row);
    return this.present(row, []);
  }

  async detail(playlistId: string, user: Viewer): Promise<PlaylistDetail> {
    const row = await this.owned(playlistId, user);
    const videos = (await this.deps.playlists.visibleVideos(row.id, user)).map((v) => this.presenter.summary(v));
    return { ...this.present(row, []), videosCount: videos.length, videos };
  }

  async update(playlistId: string, user: Viewer, body: UpdatePlaylistBody): Promise<Playlist> {
    const row = await this.owned(playlistId, user);
    await this.deps.playlists.update(row.id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      updated_at: this.now(),
    });
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, user);
  }

  async remove(playlistId: string, user: Viewer): Promise<void> {
    await this.owned(playlistId, user);
    await this.deps.playlists.delete(playlistId);
  }

  async addVideo(playlistId: string, videoId: string, user: Viewer): Promise<Playlist> {
    const row = await this.owned(playlistId, user);
    const video = await this.deps.playlists.findVideoAccess(videoId);
    if (!video || !canWatch(video, user)) throw notFound('Video');
    await this.deps.playlists.addVideo(row.id, videoId, this.now());
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
    return this.withIds((await this.deps.playlists.findById(row.id)) ?? row, user);
  }

  async listForUser(ownerId: string, viewer: Viewer | null): Promise<Playlist[]> {
    if (!(await this.deps.playlists.userExists(ownerId))) throw notFound('User');
    const rows = await this.deps.playlists.listByOwner(ownerId);
    // What a visitor sees in someone's playlists is what they could watch themselves.
    const ids = await this.deps.playlists.visibleVideoIds(rows.map((r) => r.id), viewer);
    return rows.map((r) => this.present(r, ids.get(r.id) ?? []));
  }
}
