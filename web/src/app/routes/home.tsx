import { useSearchParams } from 'react-router';
import { SearchBox } from '@/features/videos/components/search-box';
import { VideoFeed } from '@/features/videos/components/video-feed';

export default function HomePage() {
  const [params, setParams] = useSearchParams();
  const query = params.get('query') ?? '';
  return (
    <div>
      <SearchBox
        key={query}
        initial={query}
        onSearch={(q) => setParams(q ? { query: q } : {}, { replace: false })}
      />
      {query && (
        <p className="mb-4 text-sm text-neutral-500">
          Results for <span className="font-medium text-neutral-900 dark:text-neutral-100">“{query}”</span>
        </p>
      )}
      <VideoFeed params={{ query: query || undefined }} />
    </div>
  );
}
