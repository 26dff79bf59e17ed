import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from '@/components/ui/icons';

export function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation('videos');
  const [value, setValue] = useState(initial);
  function submit(e: FormEvent) {
    e.preventDefault();
    onSearch(value.trim());
  }
  return (
    <form role="search" onSubmit={submit} className="mx-auto mb-6 flex w-full max-w-xl">
      <label htmlFor="video-search" className="sr-only">
        {t('search.label')}
      </label>
      <input
        id="video-search"
        type="search"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder={t('search.placeholder')}
        className="h-10 min-w-0 flex-1 rounded-s-full border border-neutral-300 bg-white px-4 text-sm focus:border-rose-500 focus:outline-none dark:border-neutral-700 dark:bg-neutral-900"
      />
      <button
        type="submit"
        aria-label={t('search.submit')}
        className="flex h-10 w-14 items-center justify-center rounded-e-full border border-s-0 border-neutral-300 bg-neutral-100 hover:bg-neutral-200 dark:border-neutral-700 dark:bg-neutral-800 dark:hover:bg-neutral-700"
      >
        <SearchIcon width={20} height={20} />
      </button>
    </form>
  );
}
