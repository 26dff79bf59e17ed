import { type Actor, Image, Link, type Video } from '@fedify/fedify';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '@reelhouse/contract';

/** A channel of another server as this site keeps it: an account that never signs in. */
export interface RemoteChannel {
  actorId: string;
  /** `name@host`: the handle people type, which no local username can be (they have no @). */
  username: string;
  fullName: string;
  avatar: string | null;
  cover: string | null;
  /** Its page on its own site. */
  url: string;
  inbox: string;
  sharedInbox: string | null;
}

/** A video of another server: what its `Video` object says, its media staying where they are. */
export interface RemoteVideo {
  objectId: string;
  title: string;
  description: string;
  durationSeconds: number;
  thumbnail: string | null;
  hls: string | null;
  mp4: string | null;
  width: number | null;
  height: number | null;
  /** Its page on its own site. */
  url: string;
  published: number;
  updated: number;
}

/** The longest full name an account has here (the contract's FullName). */
const FULL_NAME_MAX = 60;

function text(value: unknown): string {
  return value == null ? '' : String(value);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** What other servers send as HTML (a description, a comment) as the plain text this site keeps: paragraphs and line breaks kept, tags gone. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}

function href(value: URL | Link | null | undefined): string | null {
  if (!value) return null;
  const url = value instanceof Link ? value.href : value;
  return url && /^https?:$/.test(url.protocol) ? url.href : null;
}

/** An image's address, whether the object embeds an Image or names one. */
async function imageAddress(image: Promise<Image | null>): Promise<string | null> {
  const got = await image.catch(() => null);
  return got instanceof Image ? href(got.url) : null;
}

/** The address on the actor's host that an id or link must be on: another host could speak for anything. */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** A remote actor (a PeerTube channel's `Group`, a Mastodon `Person`, another Reelhouse's channel) as a channel here; null when it cannot be reached. */
export async function remoteChannelOf(actor: Actor): Promise<RemoteChannel | null> {
  const id = actor.id;
  const inbox = actor.inboxId;
  const name = actor.preferredUsername ? text(actor.preferredUsername).trim() : '';
  if (!id || !inbox || !name || !/^https?:$/.test(id.protocol) || /[\s@/]/.test(name)) return null;
  const page = actor.urls.map((u) => href(u)).find((u): u is string => u !== null) ?? id.href;
  return {
    actorId: id.href,
    username: `${name.toLowerCase()}@${id.host}`,
    fullName: clip(text(actor.name).trim() || name, FULL_NAME_MAX),
    avatar: await imageAddress(actor.getIcon()),
    cover: await imageAddress(actor.getImage()),
    url: page,
    inbox: inbox.href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
  };
}

/** Links of a video's `url` with their media types, PeerTube's nested HLS tags included. */
function mediaLinks(urls: (URL | Link)[]): Link[] {
  const links: Link[] = [];
  for (const u of urls) if (u instanceof Link) links.push(u);
  return links;
}

/** The whole number of seconds of an ISO 8601 duration such as PT1H2M3S. */
function seconds(video: Video): number {
  const d = video.duration;
  if (!d) return 0;
  const total = d.days * 86_400 + d.hours * 3_600 + d.minutes * 60 + d.seconds + d.milliseconds / 1000;
  return Number.isFinite(total) && total > 0 ? Math.round(total) : 0;
}

/**
 * A remote `Video` as a video here, in the vocabulary PeerTube publishes (and this site does):
 * name, content, duration, url links to the page, the HLS master and mp4 files, the thumbnail as
 * icon. Null for one with nothing this site's player can play. Its media may be on another host
 * (PeerTube sites often keep them in object storage); its page must be on its own.
 */
export async function remoteVideoOf(video: Video): Promise<RemoteVideo | null> {
  const id = video.id;
  if (!id || !/^https?:$/.test(id.protocol)) return null;
  const links = mediaLinks(video.urls);
  const of = (type: RegExp) => links.filter((l) => l.mediaType && type.test(l.mediaType) && href(l));
  const hls = of(/^application\/(x-mpegurl|vnd\.apple\.mpegurl)$/i)[0];
  // The largest progressive file: PeerTube lists one per resolution.
  const mp4 = of(/^video\/mp4$/i).sort((a, b) => (b.height ?? 0) - (a.height ?? 0))[0];
  if (!hls && !mp4) return null;
  const page = of(/^text\/html$/i).find((l) => sameOrigin(href(l)!, id.href));
  const published = video.published?.epochMilliseconds ?? Date.now();
  const thumbnail = await imageAddress(video.getIcon());
  return {
    objectId: id.href,
    title: clip(text(video.name).trim() || 'Untitled', MAX_TITLE_LENGTH),
    description: clip(htmlToText(text(video.content)), MAX_DESCRIPTION_LENGTH),
    durationSeconds: seconds(video),
    thumbnail,
    hls: hls ? href(hls) : null,
    mp4: mp4 ? href(mp4) : null,
    width: mp4?.width ?? null,
    height: mp4?.height ?? null,
    url: page ? href(page)! : id.href,
    published,
    updated: video.updated?.epochMilliseconds ?? published,
  };
}
