import { Group, Person, Video } from '@fedify/fedify';
import { describe, expect, it } from 'vitest';
import { htmlToText, remoteChannelOf, remoteVideoOf } from './remote-objects.js';

const AS = 'https://www.w3.org/ns/activitystreams';

// As PeerTube publishes a video (its ActivityPub documentation and what its instances serve): a
// schema.org extension context, the description in `content`, one Link per file, the HLS master
// with its fragmented files as tags, the thumbnail as one or more icons, the account and channel
// both in attributedTo.
const peerTubeVideo = {
  '@context': [
    AS,
    'https://w3id.org/security/v1',
    {
      pt: 'https://joinpeertube.org/ns#',
      sc: 'http://schema.org/',
      uuid: 'sc:identifier',
      views: { '@type': 'sc:Number', '@id': 'pt:views' },
      sensitive: 'as:sensitive',
      language: 'sc:inLanguage',
    },
  ],
  type: 'Video',
  id: 'https://peertube.example/videos/watch/9c9de5e8-0a1e-484a-b099-e80766180a6d',
  name: 'What is PeerTube?',
  duration: 'PT1M53S',
  uuid: '9c9de5e8-0a1e-484a-b099-e80766180a6d',
  views: 2143,
  sensitive: false,
  content: '<p>For more information, see <a href="https://joinpeertube.org">joinpeertube.org</a>.</p><p>Made by Framasoft &amp; friends<br>2018</p>',
  published: '2018-10-01T10:52:46.396Z',
  updated: '2024-02-03T08:00:00.000Z',
  icon: [
    { type: 'Image', url: 'https://peertube.example/lazy-static/thumbnails/9c9de5e8.jpg', mediaType: 'image/jpeg', width: 280, height: 157 },
    { type: 'Image', url: 'https://peertube.example/lazy-static/previews/9c9de5e8.jpg', mediaType: 'image/jpeg', width: 850, height: 480 },
  ],
  url: [
    { type: 'Link', mediaType: 'text/html', href: 'https://peertube.example/w/kkGMgK9ZtnKfYAgnEtQxbv' },
    {
      type: 'Link',
      mediaType: 'application/x-mpegURL',
      href: 'https://peertube.example/static/streaming-playlists/hls/9c9de5e8/master.m3u8',
      tag: [{ type: 'Link', mediaType: 'video/mp4', href: 'https://peertube.example/static/streaming-playlists/hls/9c9de5e8/720-fragmented.mp4', height: 720 }],
    },
    { type: 'Link', mediaType: 'video/mp4', href: 'https://peertube.example/static/webseed/9c9de5e8-480.mp4', height: 480, width: 854 },
    { type: 'Link', mediaType: 'video/mp4', href: 'https://peertube.example/static/webseed/9c9de5e8-720.mp4', height: 720, width: 1280 },
  ],
  attributedTo: [
    { type: 'Person', id: 'https://peertube.example/accounts/chocobozzz' },
    { type: 'Group', id: 'https://peertube.example/video-channels/framasoft' },
  ],
  to: [`${AS}#Public`],
  cc: ['https://peertube.example/accounts/chocobozzz/followers'],
};

// A PeerTube channel and a Mastodon account as their servers serve them (public keys left out).
const peerTubeChannel = {
  '@context': [AS, 'https://w3id.org/security/v1'],
  type: 'Group',
  id: 'https://peertube.example/video-channels/framasoft',
  preferredUsername: 'framasoft',
  name: 'Framasoft',
  url: 'https://peertube.example/video-channels/framasoft',
  inbox: 'https://peertube.example/video-channels/framasoft/inbox',
  outbox: 'https://peertube.example/video-channels/framasoft/outbox',
  followers: 'https://peertube.example/video-channels/framasoft/followers',
  endpoints: { sharedInbox: 'https://peertube.example/inbox' },
  icon: [{ type: 'Image', mediaType: 'image/png', url: 'https://peertube.example/lazy-static/avatars/framasoft.png', width: 120, height: 120 }],
  image: { type: 'Image', mediaType: 'image/jpeg', url: 'https://peertube.example/lazy-static/banners/framasoft.jpg' },
};
const mastodonAccount = {
  '@context': [AS, 'https://w3id.org/security/v1', { toot: 'http://joinmastodon.org/ns#', discoverable: 'toot:discoverable' }],
  id: 'https://mastodon.example/users/Gargron',
  type: 'Person',
  preferredUsername: 'Gargron',
  name: 'Eugen Rochko',
  summary: '<p>Founder of Mastodon</p>',
  url: 'https://mastodon.example/@Gargron',
  inbox: 'https://mastodon.example/users/Gargron/inbox',
  outbox: 'https://mastodon.example/users/Gargron/outbox',
  followers: 'https://mastodon.example/users/Gargron/followers',
  discoverable: true,
  endpoints: { sharedInbox: 'https://mastodon.example/inbox' },
  icon: { type: 'Image', mediaType: 'image/png', url: 'https://files.mastodon.example/accounts/avatars/000/000/001/original/d96d39a0abb45b92.png' },
};

describe('remoteVideoOf', () => {
  it("reads PeerTube's Video: title, text, seconds, its page, HLS master, largest mp4 and first thumbnail", async () => {
    const video = await Video.fromJsonLd(peerTubeVideo);
    expect(await remoteVideoOf(video)).toEqual({
      objectId: peerTubeVideo.id,
      title: 'What is PeerTube?',
      description: 'For more information, see joinpeertube.org.\n\nMade by Framasoft & friends\n2018',
      durationSeconds: 113,
      thumbnail: 'https://peertube.example/lazy-static/thumbnails/9c9de5e8.jpg',
      hls: 'https://peertube.example/static/streaming-playlists/hls/9c9de5e8/master.m3u8',
      mp4: 'https://peertube.example/static/webseed/9c9de5e8-720.mp4',
      width: 1280,
      height: 720,
      url: 'https://peertube.example/w/kkGMgK9ZtnKfYAgnEtQxbv',
      published: Date.parse('2018-10-01T10:52:46.396Z'),
      updated: Date.parse('2024-02-03T08:00:00.000Z'),
    });
  });

  it('refuses a video with nothing to play, and takes no page from another host', async () => {
    const onlyPage = { ...peerTubeVideo, url: [{ type: 'Link', mediaType: 'text/html', href: 'https://peertube.example/w/x' }] };
    expect(await remoteVideoOf(await Video.fromJsonLd(onlyPage))).toBeNull();
    const elsewhere = { ...peerTubeVideo, url: [{ type: 'Link', mediaType: 'text/html', href: 'https://phish.example/w/x' }, peerTubeVideo.url[1]] };
    expect((await remoteVideoOf(await Video.fromJsonLd(elsewhere)))?.url).toBe(peerTubeVideo.id);
  });

  it('clips a title and description longer than this site keeps', async () => {
    const long = { ...peerTubeVideo, name: 'T'.repeat(300), content: 'D'.repeat(9000) };
    const got = await remoteVideoOf(await Video.fromJsonLd(long));
    expect(got?.title).toHaveLength(100);
    expect(got?.description).toHaveLength(5000);
  });
});

describe('remoteChannelOf', () => {
  it("reads a PeerTube channel's Group: handle on its host, name, avatar, banner, page and inboxes", async () => {
    expect(await remoteChannelOf(await Group.fromJsonLd(peerTubeChannel))).toEqual({
      actorId: peerTubeChannel.id,
      username: 'framasoft@peertube.example',
      fullName: 'Framasoft',
      avatar: 'https://peertube.example/lazy-static/avatars/framasoft.png',
      cover: 'https://peertube.example/lazy-static/banners/framasoft.jpg',
      url: 'https://peertube.example/video-channels/framasoft',
      inbox: peerTubeChannel.inbox,
      sharedInbox: 'https://peertube.example/inbox',
    });
  });

  it("reads a Mastodon account's Person, its handle in lower case", async () => {
    expect(await remoteChannelOf(await Person.fromJsonLd(mastodonAccount))).toMatchObject({
      username: 'gargron@mastodon.example',
      fullName: 'Eugen Rochko',
      url: 'https://mastodon.example/@Gargron',
      avatar: mastodonAccount.icon.url,
      cover: null,
    });
  });

  it('refuses an actor without an inbox or a usable name', async () => {
    expect(await remoteChannelOf(await Person.fromJsonLd({ ...mastodonAccount, inbox: undefined }))).toBeNull();
    expect(await remoteChannelOf(await Person.fromJsonLd({ ...mastodonAccount, preferredUsername: 'a@b' }))).toBeNull();
  });
});

describe('htmlToText', () => {
  it('keeps paragraphs and line breaks, drops tags, decodes entities', () => {
    expect(htmlToText('<p>One &lt;two&gt;</p><p>Three<br/>four &#x1F600; &#39;five&#39;</p>')).toBe("One <two>\n\nThree\nfour 😀 'five'");
    expect(htmlToText('<script>alert(1)</script>plain')).toBe('alert(1)plain');
  });
});
