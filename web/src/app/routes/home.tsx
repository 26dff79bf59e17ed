import { NavLink, useSearchParams } from 'react-router';
import { SubscriptionFeed } from '@/features/subscriptions/components/subscription-feed';
import { SearchBox } from '@/features/videos/components/search-box';
import { VideoFeed } from '@/features/videos/components/video-feed';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';

const TABS = [
  { tab: null, label: 'All' },
  { tab: 'subscriptions', label: 'Subscriptions' },
] as const;

export default function HomePage() {
  const [params, setParams] = useSearchParams();
  const { isAuthenticated } = useAuth();
  const query = params.get('query') ?? '';
  // The Subscriptions tab is for signed-in people; anyone else gets the whole site.
  const tab = isAuthenticated && !query ? params.get('tab') : null;
  return (
    <div>
      <SearchBox
        key={query}
        initial={query}
        onSearch={(q) => setParams(q ? { query: q } : {}, { replace: false })}
      />
      {isAuthenticated && !query && (
        <nav aria-label="Home tabs" className="mb-4 flex gap-2">
          {TABS.map((t) => {
            const active = tab === t.tab;
            return (
              <NavLink
                key={t.label}
                to={t.tab ? `/?tab=${t.tab}` : '/'}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'rounded-lg px-3 py-1.5 text-sm font-medium',
                  active ? 'bg-neutral-900 text-white dark:bg-white dark:text-neutral-900' : 'bg-neutral-100 hover:bg-neutral-200 dark:bg-neutral-800 dark:hover:bg-neutral-700',
                )}
              >
                {t.label}
              </NavLink>
            );
          })}
        </nav>
      )}
      {query && (
        <p className="mb-4 text-sm text-neutral-500">
          Results for <span className="font-medium text-neutral-900 dark:text-neutral-100">“{query}”</span>
        </p>
      )}
      {tab === 'subscriptions' ? <SubscriptionFeed /> : <VideoFeed params={{ query: query || undefined }} />}
    </div>
  );
}
