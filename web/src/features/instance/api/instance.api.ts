import type { PublicInstance } from '@reelhouse/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';

/** The site's name, sign-up mode and limits; changes only when an admin edits the settings. */
export function useInstance() {
  return useQuery({
    queryKey: ['instance'],
    queryFn: () => api.get<PublicInstance>('/instance'),
    staleTime: 5 * 60_000,
  });
}

/** Keeps the browser tab titled with the site's name. */
export function useSiteTitle() {
  const name = useInstance().data?.name;
  useEffect(() => {
    if (name) document.title = name;
  }, [name]);
}
