import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Avatar } from '@/components/ui/primitives';
import { cn } from '@/lib/cn';
import { useFollowedChannels } from '../api/subscriptions.api';

/** The sidebar's list of followed channels with their avatars. */
export function FollowedChannels() {
  const { t } = useTranslation('subscriptions');
  const q = useFollowedChannels(true);
  const channels = q.data?.channels ?? [];
  if (!channels.length) return null;
  return (
    <section aria-labelledby="followed-heading" className="mt-4 border-t border-neutral-200 pt-4 dark:border-neutral-800">
      <h2 id="followed-heading" className="px-3 pb-2 text-sm font-semibold">
        {t('followed.title')}
      </h2>
      <ul className="flex flex-col gap-0.5" data-testid="followed-channels">
        {channels.map((c) => (
          <li key={c._id}>
            <NavLink
              to={`/channel/${c.username}`}
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-3 rounded-lg px-3 py-1.5 text-sm',
                  isActive ? 'bg-neutral-100 dark:bg-neutral-800' : 'hover:bg-neutral-100 dark:hover:bg-neutral-800',
                )
              }
            >
              <Avatar src={c.avatar.url} alt="" size={24} />
              <span className="truncate">{c.fullName || c.username}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
