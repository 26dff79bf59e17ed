/** Reading a live's HLS as a player does, and finding the server's ffmpeg: what bench/live.mjs measures with. */
import fs from 'node:fs';

/** A media playlist's segments with their URLs and the media time each ends at. */
export function parseMedia(text, url) {
  const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
  const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1];
  const segments = [];
  let duration = 0;
  let index = sequence;
  for (const line of text.split('\n')) {
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) duration = Number(inf[1]);
    else if (line && !line.startsWith('#')) segments.push({ url: new URL(line, url).href, sequence: index++, duration });
  }
  return { sequence, init: init ? new URL(init, url).href : null, segments };
}

/** The rung playlists a master playlist names, as absolute URLs. */
export async function rungUrls(masterUrl) {
  const text = await (await fetch(masterUrl)).text();
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, masterUrl).href);
}

/** The ffmpeg processes descending from a process (a server's broadcasts), from /proc. */
export function ffmpegPidsUnder(rootPid) {
  const parents = new Map();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      parents.set(Number(pid), { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), comm });
    } catch {
      /* gone */
    }
  }
  const descends = (pid) => {
    for (let p = parents.get(pid)?.ppid; p; p = parents.get(p)?.ppid) if (p === rootPid) return true;
    return false;
  };
  return [...parents].filter(([pid, p]) => p.comm === 'ffmpeg' && descends(pid)).map(([pid]) => pid);
}
