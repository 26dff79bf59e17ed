import { type Actor, Create, Delete, type Federation, Like, Note, PUBLIC_COLLECTION, Tombstone, Undo, Update, Video } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { type LikeTarget, MAX_COMMENT_LENGTH } from '@reelhouse/contract';
import type { Viewer } from '../../db/video-access.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import type { CommentFederation, CommentsService } from '../comments/comments.service.js';
import type { LikeFederation, LikesService } from '../likes/likes.service.js';
import type { RemoteChannels } from './remote-channels.js';
import type { PublicCommentRow, RemoteInteractionsRepository } from './remote-interactions.repository.js';
import { htmlToText, sameOrigin } from './remote-objects.js';
import { textToHtml } from './video-object.js';

/** What a remote author does here: writes, edits and deletes comments, likes videos. */
const REMOTE_MEMBER = 'user' as const;

export interface RemoteInteractionsDeps {
  federation: Federation<void>;
  rows: RemoteInteractionsRepository;
  remote: RemoteChannels;
  /** The services that apply the site's rules to what remote authors do (built without federation, so nothing is sent back). */
  comments: CommentsService;
  likes: LikesService;
  origin: string;
  /** Told after a share is counted or uncounted: the count is on the video page. */
  changes?: PublicChanges;
  now?: () => number;
}

/** A Note as the activity that carries it says, with a way to fetch its author. */
export interface ArrivingNote {
  actorId: string;
  note: Note;
  author: () => Promise<Actor | null>;
}

/**
 * Comments and likes across servers. What this site's members write under, and like of, videos of
 * other servers goes to those servers (a Create, Update or Delete of a Note, a Like or its Undo),
 * signed by the member's channel; what other servers' members write under, and like of, this
 * site's videos arrives in the inbox and is kept through the same services, rules and
 * notifications as a member's own.
 */
export class RemoteInteractions implements CommentFederation, LikeFederation {
  constructor(private readonly deps: RemoteInteractionsDeps) {}

  private context() {
    return this.deps.federation.createContext(new URL(this.deps.origin));
  }

  // ---- What this site's members do, sent to the video's server ----

  async added(commentId: string): Promise<void> {
    await this.sendNote(commentId, Create, 'create');
  }

  async edited(commentId: string): Promise<void> {
    await this.sendNote(commentId, Update, 'update');
  }

  /** The comment's row is gone by now: the video's row says where its Delete goes. */
  async removed(comment: { id: string; videoId: string; authorId: string }): Promise<void> {
    const video = await this.deps.rows.remoteVideo(comment.videoId);
    if (!video || !(await this.deps.rows.isLocalAccount(comment.authorId))) return;
    const ctx = this.context();
    const noteId = ctx.getObjectUri(Note, { id: comment.id });
    const actor = ctx.getActorUri(comment.authorId);
    await ctx.sendActivity(
      { identifier: comment.authorId },
      { id: new URL(video.owner_actor), inboxId: new URL(video.owner_inbox) },
      new Delete({ id: new URL(`${noteId.href}#delete`), actor, object: new Tombstone({ id: noteId }), to: PUBLIC_COLLECTION }),
    );
  }

  async toggled(like: { userId: string; type: LikeTarget; targetId: string; liked: boolean }): Promise<void> {
    if (like.type !== 'video') return;
    const video = await this.deps.rows.remoteVideo(like.targetId);
    if (!video || !(await this.deps.rows.isLocalAccount(like.userId))) return;
    const ctx = this.context();
    const actor = ctx.getActorUri(like.userId);
    // A new id each time: receivers drop an activity id they have seen, and a like may come back after an unlike.
    const liked = new Like({ id: new URL(`${actor.href}#like-${like.targetId}-${Date.now()}`), actor, object: new URL(video.object_id) });
    const activity = like.liked ? liked : new Undo({ id: new URL(`${actor.href}#unlike-${like.targetId}-${Date.now()}`), actor, object: liked });
    await ctx.sendActivity({ identifier: like.userId }, { id: new URL(video.owner_actor), inboxId: new URL(video.owner_inbox) }, activity);
  }

  /** A comment of a member under a remote video, as a Note in a Create or an Update, to the video's channel. */
  private async sendNote(commentId: string, Activity: typeof Create | typeof Update, kind: 'create' | 'update'): Promise<void> {
    const row = await this.deps.rows.outgoingComment(commentId);
    if (!row) return;
    const ctx = this.context();
    // A reply answers the remote comment of its thread, or the Note of this site's comment it answers.
    const inReplyTo = row.parent_object_id ?? (row.parent_id ? ctx.getObjectUri(Note, { id: row.parent_id }).href : row.video_object_id);
    const channel = new URL(row.video_owner_actor);
    const note = noteOf(row, { id: ctx.getObjectUri(Note, { id: row.id }), author: ctx.getActorUri(row.owner_id), inReplyTo: new URL(inReplyTo), cc: channel });
    // An Update's id names the edit: receivers drop an activity id they have seen.
    const id = new URL(`${note.id!.href}#${kind === 'create' ? 'create' : `update-${row.updated_at}`}`);
    const activity = new Activity({ id, actor: ctx.getActorUri(row.owner_id), object: note, to: PUBLIC_COLLECTION, cc: channel });
    await ctx.sendActivity({ identifier: row.owner_id }, { id: channel, inboxId: new URL(row.video_owner_inbox) }, activity);
  }

  /** A comment of this site as its Note, for the address that names it. */
  async publicNote(commentId: string): Promise<Note | null> {
    const row = await this.deps.rows.publicComment(commentId);
    if (!row) return null;
    const ctx = this.context();
    const inReplyTo = new URL(
      row.parent_object_id ??
        (row.parent_id ? ctx.getObjectUri(Note, { id: row.parent_id }).href : (row.video_object_id ?? ctx.getObjectUri(Video, { id: row.video_id }).href)),
    );
    return noteOf(row, { id: ctx.getObjectUri(Note, { id: row.id }), author: ctx.getActorUri(row.owner_id), inReplyTo, cc: null });
  }

  // ---- What other servers' members do here ----

  /**
   * A Note in reply to one of this site's videos, or to a comment under one, becomes a comment by
   * its author (kept as a remote account). Anything else (a reply elsewhere, a Note already kept, an
   * author who is not its sender, a banned author) is dropped.
   */
  async noteArrived(arriving: ArrivingNote): Promise<boolean> {
    const { note, actorId } = arriving;
    if (!note.id || note.attributionId?.href !== actorId || !sameOrigin(note.id.href, actorId)) return false;
    if (await this.deps.rows.commentByObject(note.id.href)) return false;
    const target = await this.replyTarget(note.replyTargetId);
    if (!target) return false;
    const content = htmlToText(String(note.content ?? '')).slice(0, MAX_COMMENT_LENGTH);
    if (!content.trim()) return false;
    const author = await this.author(arriving);
    if (!author) return false;
    await this.deps.comments.add(target.videoId, author, content, target.parentId ?? undefined, {
      objectId: note.id.href,
      url: note.url instanceof URL ? note.url.href : note.id.href,
    });
    return true;
  }

  /** An edit of a remote comment, by its own author. */
  async noteEdited(actorId: string, note: Note): Promise<boolean> {
    if (!note.id) return false;
    const row = await this.deps.rows.commentByObject(note.id.href);
    if (!row || row.remote_actor_id !== actorId) return false;
    const content = htmlToText(String(note.content ?? '')).slice(0, MAX_COMMENT_LENGTH);
    if (!content.trim()) return false;
    await this.deps.comments.edit(row.id, { id: row.owner_id, role: REMOTE_MEMBER }, content);
    return true;
  }

  /** A remote comment its author deleted. */
  async noteGone(actorId: string, objectId: string): Promise<boolean> {
    const row = await this.deps.rows.commentByObject(objectId);
    if (!row || row.remote_actor_id !== actorId) return false;
    await this.deps.comments.remove(row.id, { id: row.owner_id, role: REMOTE_MEMBER });
    return true;
  }

  /** A Like of one of this site's videos by a remote member, or its Undo. */
  async likeArrived(arriving: { actorId: string; objectId: string; author: () => Promise<Actor | null> }, liked: boolean): Promise<boolean> {
    const videoId = this.localObject(new URL(arriving.objectId), Video);
    if (!videoId || !(await this.deps.rows.isLocalVideo(videoId))) return false;
    const author = await this.author({ actorId: arriving.actorId, author: arriving.author });
    return author ? this.deps.likes.setLiked('video', videoId, author, liked) : false;
  }

  /** An Announce (a boost) of one of this site's videos by an account elsewhere, or its Undo: counted once per account. */
  async shareArrived(actorId: string, objectId: string, shared: boolean): Promise<boolean> {
    const videoId = this.localObject(new URL(objectId), Video);
    if (!videoId || !(await this.deps.rows.isPublicLocalVideo(videoId))) return false;
    const changed = shared
      ? await this.deps.rows.addShare(videoId, actorId, (this.deps.now ?? Date.now)())
      : await this.deps.rows.removeShare(videoId, actorId);
    if (changed) await this.deps.changes?.changed();
    return changed;
  }

  /** The remote account of who sent it, kept (or refreshed) here; null for one that cannot be read or is banned here. */
  private async author(arriving: { actorId: string; author: () => Promise<Actor | null> }): Promise<Viewer | null> {
    const actor = await arriving.author().catch(() => null);
    if (!actor?.id || actor.id.href !== arriving.actorId) return null;
    const row = await this.deps.remote.keepActor(actor);
    return row ? { id: row.id, role: REMOTE_MEMBER } : null;
  }

  /** Which of this site's videos (and which thread) a reply answers. */
  private async replyTarget(target: URL | null): Promise<{ videoId: string; parentId: string | null } | null> {
    if (!target) return null;
    const videoId = this.localObject(target, Video);
    if (videoId) return (await this.deps.rows.isLocalVideo(videoId)) ? { videoId, parentId: null } : null;
    const commentId = this.localObject(target, Note);
    const comment = commentId ? await this.deps.rows.comment(commentId) : await this.deps.rows.commentByObject(target.href);
    if (!comment || !(await this.deps.rows.isLocalVideo(comment.video_id))) return null;
    return { videoId: comment.video_id, parentId: comment.parent_id ?? comment.id };
  }

  private localObject(uri: URL, type: typeof Video | typeof Note): string | null {
    const parsed = this.context().parseUri(uri);
    return parsed?.type === 'object' && parsed.class === type ? (parsed.values.id ?? null) : null;
  }
}

/** A comment as the Note PeerTube and Mastodon show: its text as HTML, whom it answers, public. */
function noteOf(row: Pick<PublicCommentRow, 'content' | 'created_at' | 'updated_at'>, at: { id: URL; author: URL; inReplyTo: URL; cc: URL | null }): Note {
  return new Note({
    id: at.id,
    attribution: at.author,
    content: textToHtml(row.content),
    mediaType: 'text/html',
    replyTarget: at.inReplyTo,
    published: Temporal.Instant.fromEpochMilliseconds(Number(row.created_at)),
    updated: Temporal.Instant.fromEpochMilliseconds(Number(row.updated_at)),
    to: PUBLIC_COLLECTION,
    ccs: at.cc ? [at.cc] : [],
  });
}
