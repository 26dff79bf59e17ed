import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { toggleSubscription } from '../api/subscriptions.api';

interface SubscribeButtonProps {
  channelId: string;
  isSubscribed: boolean;
  signedIn: boolean;
  notify: (message: string, kind: 'error' | 'info') => void;
  /** Told the new state and the change in subscriber count. */
  onChange?: (subscribed: boolean, delta: number) => void;
}

export function SubscribeButton({ channelId, isSubscribed, signedIn, notify, onChange }: SubscribeButtonProps) {
  const { t } = useTranslation('subscriptions');
  const [subscribed, setSubscribed] = useState(isSubscribed);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  // A new answer from the server wins over the state this button last set.
  const [shownFor, setShownFor] = useState(isSubscribed);
  if (shownFor !== isSubscribed) {
    setShownFor(isSubscribed);
    setSubscribed(isSubscribed);
  }

  async function onClick() {
    if (!signedIn) {
      notify(t('subscribe.signInFirst'), 'info');
      return;
    }
    setBusy(true);
    try {
      const now = await toggleSubscription(channelId);
      if (now !== subscribed) onChange?.(now, now ? 1 : -1);
      setSubscribed(now);
      // The sidebar's channels and the subscriptions feed follow.
      void qc.invalidateQueries({ queryKey: ['subscriptions'] });
    } catch (e) {
      notify(isApiError(e, 403) ? t('subscribe.ownChannel') : errorMessage(e, t('subscribe.failed')), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant={subscribed ? 'secondary' : 'subscribe'} onClick={onClick} disabled={busy} aria-pressed={subscribed}>
      {subscribed ? t('subscribe.subscribed') : t('subscribe.subscribe')}
    </Button>
  );
}
