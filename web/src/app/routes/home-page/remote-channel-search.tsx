import { useToast } from '@/components/ui/toast';
import { RemoteChannelLookup } from '@/features/federation/components/remote-channel-lookup';
import { SubscribeButton } from '@/features/subscriptions/components/subscribe-button';
import { useAuth } from '@/lib/auth';

/**
 * A search for a channel of another server, with its subscribe button. The home page loads this
 * on demand, only for a search that looks like a handle or an address, so its first download stays small.
 */
export default function RemoteChannelSearch({ search }: { search: string }) {
  const { user, isAuthenticated } = useAuth();
  const toast = useToast();
  return (
    <RemoteChannelLookup
      search={search}
      signedIn={isAuthenticated}
      renderActions={(channel, onSubscribed) =>
        // A handle of this site may name the searcher's own channel, which nobody subscribes to.
        user?._id === channel._id ? null : (
          <SubscribeButton
            channelId={channel._id}
            isSubscribed={channel.isSubscribed}
            signedIn={isAuthenticated}
            notify={(message, kind) => toast.show(message, kind)}
            onChange={(subscribed) => onSubscribed(subscribed)}
          />
        )
      }
    />
  );
}
