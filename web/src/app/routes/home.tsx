import { lazy, Suspense } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { TrendingFeed } from '@/features/discovery/components/trending-feed';
import { looksLikeRemoteHandle } from '@/features/federation/lib/remote-handle';
import { LiveFeed } from '@/features/live/components/live-feed';
import { SubscriptionFeed } from '@/features/subscriptions/components/subscription-feed';
import { SearchBox } from '@/features/videos/components/search-box';
import { VideoFeed } from '@/features/videos/components/video-feed';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';

// A search for a channel of another server loads its lookup only when one is made.
const RemoteChannelSearch = lazy(() => import('./home-page/remote-channel-search'));

const TABS = [
  { tab: null, signedInOnly: false },
  { tab: 'trending', signedInOnly: false },
  { tab: 'live', signedInOnly: false },
  { tab: 'subscriptions', signedInOnly: true },
] as const;

export default function HomePage() {
  const { t } = useTranslation('app');
  const [params, setParams] = useSearchParams();
  const { isAuthenticated } = useAuth();
  const query = params.get('query') ?? '';
  // Trending is for everyone; the Subscriptions tab is for signed-in people (anyone else gets the
  // whole site); a search shows its results whatever the tab.
  const tabs = TABS.filter((entry) => isAuthenticated || !entry.signedInOnly);
  const asked = query ? null : params.get('tab');
  const tab = tabs.find((entry) => entry.tab === asked)?.tab ?? null;
  const labels = {
    all: t('home.tabs.all'),
    trending: t('home.tabs.trending'),
    live: t('home.tabs.live'),
    subscriptions: t('home.tabs.subscriptions'),
  };
  return (
    <div>
      <SearchBox key={query} initial={query} onSearch={(q) => setParams(q ? { query: q } : {}, { replace: false })} />
      {!query && (
        // Links, not NavLinks: every tab is the path /, which NavLink would mark current in all of them.
        <nav aria-label={t('home.tabsLabel')} className="mb-4 flex gap-2">
          {tabs.map((entry) => {
            const active = tab === entry.tab;
            return (
              <Link
                key={entry.tab ?? 'all'}
                to={entry.tab ? `/?tab=${entry.tab}` : '/'}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'rounded-lg px-3 py-1.5 text-sm font-medium',
                  active
                    ? 'bg-neutral-900 text-white dark:bg-white dark:text-neutral-900'
                    : 'bg-neutral-100 hover:bg-neutral-200 dark:bg-neutral-800 dark:hover:bg-neutral-700',
                )}
              >
                {labels[entry.tab ?? 'all']}
              </Link>
            );
          })}
        </nav>
      )}
      {query && (
        <p className="mb-4 break-words text-sm text-neutral-500">
          {/* The query is a child, never part of the text that is interpolated and parsed. */}
          <Trans
            t={t}
            i18nKey="home.resultsFor"
            components={{ query: <span className="font-medium text-neutral-900 dark:text-neutral-100" />, value: <bdi>{query}</bdi> }}
          />
        </p>
      )}
      {query && looksLikeRemoteHandle(query) && (
        <Suspense fallback={null}>
          <RemoteChannelSearch search={query} />
        </Suspense>
      )}
      {tab === 'subscriptions' ? (
        <SubscriptionFeed />
      ) : tab === 'trending' ? (
        <TrendingFeed />
      ) : tab === 'live' ? (
        <LiveFeed />
      ) : (
        <VideoFeed params={{ query: query || undefined }} />
      )}
    </div>
  );
}
