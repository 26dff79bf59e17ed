import { Link, useSearchParams } from 'react-router';
import { TrendingFeed } from '@/features/discovery/components/trending-feed';
import { LiveFeed } from '@/features/live/components/live-feed';
import { SubscriptionFeed } from '@/features/subscriptions/components/subscription-feed';
import { SearchBox } from '@/features/videos/components/search-box';
import { VideoFeed } from '@/features/videos/components/video-feed';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';

const TABS = [
  { tab: null, label: 'All', signedInOnly: false },
  { tab: 'trending', label: 'Trending', signedInOnly: false },
  { tab: 'live', label: 'Live', signedInOnly: false },
  { tab: 'subscriptions', label: 'Subscriptions', signedInOnly: true },
] as const;

export default function HomePage() {
  const [params, setParams] = useSearchParams();
  const { isAuthenticated } = useAuth();
  const query = params.get('query') ?? '';
  // Trending is for everyone; the Subscriptions tab is for signed-in people (anyone else gets the
  // whole site); a search shows its results whatever the tab.
  const tabs = TABS.filter((t) => isAuthenticated || !t.signedInOnly);
  const asked = query ? null : params.get('tab');
  const tab = tabs.find((t) => t.tab === asked)?.tab ?? null;
  return (
    <div>
      <SearchBox key={query} initial={query} onSearch={(q) => setParams(q ? { query: q } : {}, { replace: false })} />
      {!query && (
        // Links, not NavLinks: every tab is the path /, which NavLink would mark current in all of them.
        <nav aria-label="Home tabs" className="mb-4 flex gap-2">
          {tabs.map((t) => {
            const active = tab === t.tab;
            return (
              <Link
                key={t.label}
                to={t.tab ? `/?tab=${t.tab}` : '/'}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'rounded-lg px-3 py-1.5 text-sm font-medium',
                  active
                    ? 'bg-neutral-900 text-white dark:bg-white dark:text-neutral-900'
                    : 'bg-neutral-100 hover:bg-neutral-200 dark:bg-neutral-800 dark:hover:bg-neutral-700',
                )}
              >
                {t.label}
              </Link>
            );
          })}
        </nav>
      )}
      {query && (
        <p className="mb-4 text-sm text-neutral-500">
          Results for <span className="font-medium text-neutral-900 dark:text-neutral-100">“{query}”</span>
        </p>
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
