import type { Channel } from '@reelhouse/contract';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/primitives';
import { useInstance } from '@/features/instance/api/instance.api';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useRemoteChannelLookup, useSetLookedUpSubscription } from '../api/federation.api';
import { displayHandle } from '../lib/remote-handle';
import { RemoteChannelCard } from './remote-channel-card';

interface RemoteChannelLookupProps {
  /** What was searched for: a handle or an actor's address. */
  search: string;
  signedIn: boolean;
  /**
   * The found channel's actions (its subscribe button), given by the page that composes features;
   * `onSubscribed` keeps the remembered answer in step, so that the search shown again is right.
   */
  renderActions?: (channel: Channel, onSubscribed: (subscribed: boolean) => void) => ReactNode;
}

/** Why the lookup failed, in words for the searcher; null when nothing answers at the handle. */
function failureText(error: unknown, fallback: string): string | null {
  if (error instanceof ApiError && error.status === 404) return null;
  if (error instanceof ApiError && error.status === 400) {
    // A malformed handle: the field's own message says what is wrong with it.
    const fields = (error.data as { errors?: { message: string }[] } | null)?.errors;
    if (fields?.[0]) return fields[0].message;
  }
  // 422 (the server is blocked here) and the rest: the server's message.
  return errorMessage(error, fallback);
}

/**
 * A search for a channel of another server: the server looks it up there (for signed-in members
 * only, since it fetches on their behalf), and the channel is shown above the site's own results.
 * Nothing shows on a site that does not federate.
 */
export function RemoteChannelLookup({ search, signedIn, renderActions }: RemoteChannelLookupProps) {
  const { t } = useTranslation('federation');
  const federates = useInstance().data?.federation === true;
  const handle = displayHandle(search);
  const lookup = useRemoteChannelLookup(search.trim(), federates && signedIn);
  const setSubscribed = useSetLookedUpSubscription(search.trim());
  if (!federates) return null;

  let body: ReactNode;
  if (!signedIn) {
    body = (
      <p className="text-sm">
        <Trans t={t} i18nKey="lookup.signIn" components={{ login: <Link to="/login" className="font-medium text-rose-700 underline dark:text-rose-400" /> }} />
      </p>
    );
  } else if (lookup.isPending) {
    body = <Spinner label={t('lookup.searching', { handle })} />;
  } else if (lookup.isError) {
    const failure = failureText(lookup.error, t('lookup.failed'));
    body = (
      <p className="text-sm" role="alert">
        {failure ?? <Trans t={t} i18nKey="lookup.notFound" components={{ handle: <bdi className="font-medium">{handle}</bdi> }} />}
      </p>
    );
  } else {
    return (
      <section aria-label={t('lookup.label')} className="mb-6" data-testid="remote-channel-lookup">
        <RemoteChannelCard channel={lookup.data} actions={renderActions?.(lookup.data, setSubscribed)} />
      </section>
    );
  }
  return (
    <section
      aria-label={t('lookup.label')}
      className="mb-6 rounded-xl border border-neutral-200 p-4 dark:border-neutral-800"
      data-testid="remote-channel-lookup"
    >
      {body}
    </section>
  );
}
