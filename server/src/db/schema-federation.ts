/** The tables of federation with other servers (migrations 0057 to 0060), part of `Database`. */
export interface FederationTables {
  /** A channel's RSA key pair as JWK (JSON), for signing what it sends to other servers. */
  federation_keys: { user_id: string; public_key: string; private_key: string; created_at: number };
  /** Remote actors following a channel: where its activities are delivered. */
  federation_followers: {
    channel_id: string;
    actor_id: string;
    inbox: string;
    shared_inbox: string | null;
    /** The id of their Follow, which an Undo names. */
    follow_id: string | null;
    created_at: number;
  };
  /** Remote channels a channel follows; accepted_at is set when their Accept arrives. */
  federation_following: {
    channel_id: string;
    actor_id: string;
    inbox: string;
    follow_id: string;
    accepted_at: number | null;
    created_at: number;
  };
  /** A message of the ActivityPub library's queue (JSON), named by its `federation.message` job. */
  federation_messages: { id: string; body: string; created_at: number };
  /** The ActivityPub library's key-value store: JSON values, expires_at null for none. */
  federation_kv: { key: string; value: string; expires_at: number | null };
  /** A video whose Create went to the channel's followers, until its Delete does; video_updated_at as last sent. */
  federation_sent_videos: { video_id: string; channel_id: string; video_updated_at: number; sent_at: number };
  /** A video of this site shared (announced, boosted) by an account of another server, once per account. */
  federation_shares: { video_id: string; actor_id: string; created_at: number };
  /** A remote server admins blocked, its subdomains with it. */
  federation_blocks: { domain: string; blocked_by: string | null; created_at: number };
}
