import '@vidstack/react/player/styles/default/theme.css';
import '@vidstack/react/player/styles/default/layouts/video.css';
import './player.css';

import { isHLSProvider, MediaPlayer, MediaProvider, Poster, Track, type MediaPlayerInstance, type MediaProviderAdapter } from '@vidstack/react';
import { DefaultMenuCheckbox, DefaultTooltip, DefaultVideoLayout, defaultLayoutIcons } from '@vidstack/react/player/layouts/default';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEED_STEPS } from './playback';
import { TheaterExitIcon, TheaterIcon } from './theater-icons';
import { absoluteUrl, pickSource } from './source';
import type { VideoPlayerProps } from './types';
import { browserStorage, createVolumeStorage } from './volume-storage';
import { useViewCounter } from './use-view-counter';
import { attachPlayer } from './player-control';
import { chapterCues } from './chapter-cues';
import { hlsTypeForThisBrowser } from './hls-type';
import { usePlayerKeys } from './use-player-keys';
import { videoElement } from './video-element';
import { keepQualityChoice } from './quality-choice';
import { LiveEdgeButton } from './live-edge-button';
import { keepDvrSeekable } from './live-dvr';
import { useLayoutTranslations } from './layout-translations';
import { preferredCaption } from './preferred-caption';
import { SpeedMenu } from './speed-menu';
import { mendVidstackAccessibility } from './vidstack-mends';
import { readViewingPreferences, setViewingPreference, useViewingPreferences } from './viewing-preferences';

/**
 * hls.js for a live: start and stay this many 1 s segments behind the newest (a short buffer,
 * seconds of latency). No maximum latency: a viewer who went back in the broadcast's window stays
 * there until they press LIVE.
 */
const LIVE_HLS_CONFIG = { lowLatencyMode: true, liveSyncDurationCount: 3, backBufferLength: 30 };
/** The broadcast's window is seekable once it holds this many seconds (vidstack's default is a minute). */
const MIN_DVR_WINDOW_SECONDS = 10;

const PLAYBACK_RATES = [...SPEED_STEPS];

/**
 * The video page's player: vidstack's default video layout (quality, speed, fullscreen, PiP,
 * seek-preview thumbnails, buffering indicator) over hls.js from the installed package, with
 * YouTube's keyboard shortcuts, a theater-mode button and view counting by watched time.
 */
export function VideoPlayer({
  videoId,
  title,
  src,
  hlsSrc,
  poster,
  storyboard,
  duration,
  chapters,
  captions,
  theater,
  onTheaterChange,
  onViewCounted,
  startAt,
  autoPlay,
  onTimeChange,
  onPause,
  onEnded,
  live = false,
  muted = false,
}: VideoPlayerProps) {
  const { t, i18n } = useTranslation('player');
  const preferences = useViewingPreferences();
  const translations = useLayoutTranslations();
  const playerRef = useRef<MediaPlayerInstance>(null);
  const startedRef = useRef(false);
  const storage = useMemo(() => createVolumeStorage(browserStorage(), undefined, () => readViewingPreferences().captionsByDefault), []);

  // Callbacks and props read from long-lived listeners without re-subscribing them.
  const latest = useRef({ onTheaterChange, theater, duration, startAt, src, onTimeChange, onPause, onEnded });

  const views = useViewCounter({ videoId, duration, onViewCounted });
  // Where the page asked playback to be (a transcript line, chapter or timestamp) before it started:
  // it wins over the resumed position, and holds on each source the player loads until then.
  const soughtRef = useRef<number | null>(null);
  // Another video in the same mount starts unplayed.
  useEffect(() => {
    startedRef.current = false;
    soughtRef.current = null;
  }, [videoId]);

  const [source, setSource] = useState(() => pickSource(src, hlsSrc, null, false));
  useLayoutEffect(() => {
    latest.current = { onTheaterChange, theater, duration, startAt, src: source.src, onTimeChange, onPause, onEnded };
  });
  useEffect(() => {
    setSource((current) => pickSource(src, hlsSrc, current, startedRef.current));
  }, [src, hlsSrc]);
  const playerSrc = useMemo(() => ({ src: source.src, type: source.kind === 'hls' ? hlsTypeForThisBrowser() : source.type }), [source]);

  const thumbnails = useMemo(() => (storyboard && typeof window !== 'undefined' ? absoluteUrl(storyboard, window.location.href) : undefined), [storyboard]);

  // Segments on the seek bar, titles in its preview and beside the time (vidstack's default layout).
  const chapterContent = useMemo(() => (chapters && chapters.length > 0 ? { cues: chapterCues(chapters, duration) } : null), [chapters, duration]);

  // The HLS provider's hls.js, to pin a rung the viewer picked (see keepQualityChoice).
  const hlsRef = useRef<{ loadLevel: number } | null>(null);
  const onProviderChange = useCallback(
    (provider: MediaProviderAdapter | null) => {
      hlsRef.current = null;
      if (isHLSProvider(provider)) {
        provider.onInstance((hls) => {
          hlsRef.current = hls;
          if (live) keepDvrSeekable(hls, () => playerRef.current);
        });
        // vidstack would fetch hls.js from a CDN; use the bundled build (light: no subtitles, DRM,
        // alternate audio, none of which the ladder has), split into its own chunk.
        provider.library = () => import('hls.js/light');
        // Auto quality never picks a rung larger than the player shows.
        provider.config = { capLevelToPlayerSize: true, ...(live ? LIVE_HLS_CONFIG : {}) };
      }
    },
    [live],
  );

  const { onTime, onInterrupt } = views;
  const onTimeUpdate = useCallback(
    ({ currentTime }: { currentTime: number }) => {
      const state = playerRef.current?.state;
      onTime(currentTime, state?.seeking ?? false, state?.duration ?? 0);
      if (startedRef.current) latest.current.onTimeChange?.(currentTime, state?.duration ?? 0);
    },
    [onTime],
  );
  const onStarted = useCallback(() => {
    startedRef.current = true;
  }, []);
  // A resumed video starts where the viewer left it, once per source and only before playback has
  // started: on the element itself once it has metadata (vidstack's own seek is queued and may be
  // dropped before playback), whichever of the metadata and startAt comes last.
  const resumedSrc = useRef<string | null>(null);
  const applyResume = useCallback(() => {
    const player = playerRef.current;
    const { startAt: at, src: current } = latest.current;
    if (!player || startedRef.current || resumedSrc.current === current) return;
    const wanted = soughtRef.current ?? at;
    if (!wanted) return;
    const media = videoElement(player);
    if (!media || media.readyState < 1) return;
    resumedSrc.current = current;
    media.currentTime = wanted;
  }, []);
  useEffect(applyResume, [startAt, source.src, applyResume]);
  // The place kept is where playback paused, not the last time update (up to a frame or more before).
  const onPaused = useCallback(() => {
    const media = videoElement(playerRef.current);
    if (startedRef.current && media && media.readyState > 0) {
      latest.current.onTimeChange?.(media.currentTime, media.duration);
    }
    latest.current.onPause?.();
  }, []);
  const onEndedCb = useCallback(() => latest.current.onEnded?.(), []);

  // The rest of the page (transcript, chapters, timestamps in text) seeks through player-control.
  useEffect(
    () =>
      attachPlayer({
        seek(seconds) {
          const player = playerRef.current;
          if (!player) return;
          player.currentTime = seconds;
          // vidstack drops a seek to where its state says playback is, and its state lags a seek made
          // on the element before playback started (a resumed position): seek the element as well.
          const media = videoElement(player);
          if (media && media.readyState > 0) media.currentTime = seconds;
          // Before playback starts, a source still loading (or loaded next) takes this position
          // rather than the resumed one once it has its metadata.
          if (!startedRef.current) {
            soughtRef.current = seconds;
            if (!media || media.readyState < 1) resumedSrc.current = null;
          }
          void player.play().catch(() => {});
          player.el?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
        },
        currentTime: () => playerRef.current?.currentTime ?? 0,
      }),
    [],
  );

  // One player per source (see the key below), so its quality list is watched per source.
  useEffect(() => {
    const qualities = playerRef.current?.qualities;
    if (!qualities) return undefined;
    return keepQualityChoice(qualities, (index) => {
      // The rung already playing: kept from the next fragment on, without flushing what is buffered.
      if (hlsRef.current) hlsRef.current.loadLevel = index;
    });
  }, [source.src]);

  const flash = usePlayerKeys(playerRef, latest);
  useEffect(() => mendVidstackAccessibility(playerRef.current?.el ?? null), [source.src]);
  // With captions on by preference, the track in the interface's language (or the first) starts on.
  const defaultCaption = preferences.captionsByDefault ? preferredCaption(captions ?? [], i18n.language) : null;

  // The player's own accessibility menu holds the device's viewing preferences, for everyone.
  const preferenceItems = (
    <>
      {(
        [
          ['keyboardShortcuts', t('preferences.keyboardShortcuts')],
          ['captionsByDefault', t('preferences.captionsByDefault')],
        ] as const
      ).map(([name, label]) => (
        <DefaultMenuCheckbox
          key={name}
          label={label}
          checked={preferences[name]}
          // vidstack reports the starting value as a change when the menu mounts: only real changes are kept.
          defaultChecked={preferences[name]}
          onChange={(checked) => {
            if (checked !== readViewingPreferences()[name]) setViewingPreference(name, checked);
          }}
        />
      ))}
    </>
  );

  const theaterButton = (
    <DefaultTooltip content={theater ? t('theater.defaultViewTooltip') : t('theater.theaterModeTooltip')} placement="top">
      <button
        type="button"
        className="vds-button"
        aria-label={theater ? t('theater.defaultView') : t('theater.theaterMode')}
        aria-pressed={theater}
        data-theater-button=""
        onClick={() => onTheaterChange(!theater)}
      >
        {theater ? <TheaterExitIcon className="vds-icon" /> : <TheaterIcon className="vds-icon" />}
      </button>
    </DefaultTooltip>
  );

  return (
    <MediaPlayer
      // A fresh player per source: vidstack stalls when one instance moves from its progressive
      // provider to its HLS provider. Sources change only before playback or with the video.
      key={source.src}
      ref={playerRef}
      className="rh-player"
      data-theater={theater ? '' : undefined}
      title={title}
      src={playerSrc}
      viewType="video"
      streamType={live ? 'll-live:dvr' : 'on-demand'}
      minLiveDVRWindow={MIN_DVR_WINDOW_SECONDS}
      muted={muted}
      playsInline
      keyDisabled
      storage={storage}
      load="visible"
      posterLoad="eager"
      onProviderChange={onProviderChange}
      onTimeUpdate={onTimeUpdate}
      onSeeking={onInterrupt}
      onSourceChange={onInterrupt}
      onEmptied={onInterrupt}
      onStarted={onStarted}
      onPause={onPaused}
      onLoadedMetadata={applyResume}
      onEnded={onEndedCb}
      autoPlay={autoPlay}
    >
      <MediaProvider>
        {poster ? <Poster className="vds-poster" src={poster} alt={title} /> : null}
        {chapterContent ? <Track kind="chapters" type="json" content={chapterContent} label={t('controls.chapters')} lang="en" default /> : null}
        {/* Captions: the viewer's last choice (a language, or off) comes back from storage. */}
        {captions?.map((c) => (
          <Track key={c.url} kind="subtitles" type="vtt" src={c.url} language={c.language} label={c.label} default={c.url === defaultCaption?.url} />
        ))}
      </MediaProvider>
      {flash ? (
        <div key={flash.key} className="rh-player-flash" role="status" aria-live="polite">
          {flash.text}
        </div>
      ) : null}
      <DefaultVideoLayout
        icons={defaultLayoutIcons}
        colorScheme="dark"
        translations={translations}
        thumbnails={thumbnails}
        playbackRates={PLAYBACK_RATES}
        noAudioGain
        slots={{
          beforeFullscreenButton: theaterButton,
          // Casting would load Google's sender SDK from its CDN; a self-hosted site should not.
          googleCastButton: null,
          // On air: a LIVE button that jumps to the newest, in place of the time and duration.
          liveButton: <LiveEdgeButton />,
          accessibilityMenuItemsEnd: preferenceItems,
          settingsMenuItemsEnd: <SpeedMenu />,
        }}
      />
    </MediaPlayer>
  );
}
