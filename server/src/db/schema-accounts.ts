export type Role = 'user' | 'moderator' | 'admin';

/**
 * The tables of accounts and signing in (users, sessions and tokens, mails, passkeys, linked
 * identities, two-factor), part of `Database`.
 */
export interface AccountTables {
  users: {
    id: string;
    username: string;
    email: string;
    full_name: string;
    /** argon2id; empty for an account made by single sign-on that never set a password (nothing matches it). */
    password_hash: string;
    avatar_key: string | null;
    cover_key: string | null;
    is_demo: number;
    /** 'user', 'moderator' or 'admin'. */
    role: Role;
    /** Set while the account is banned: it cannot sign in and its content is hidden everywhere. */
    banned_at: number | null;
    ban_reason: string | null;
    /** 1 while a sign-up made in approval mode waits for an admin; it cannot sign in until then. */
    approval_pending: number;
    /** This user's storage quota and daily upload quota in bytes; null: the site's defaults, -1: unlimited. */
    quota_bytes: number | null;
    daily_quota_bytes: number | null;
    subscribers_count: number;
    /** The owner's listed videos: what their channel shows to others. */
    videos_count: number;
    /** When the address was confirmed (a link mailed to it followed); null until then. */
    email_verified_at: number | null;
    /** 1 when an admin has allowed the account to go live (what counts when only approved accounts may). */
    live_allowed: number;
    /** The language the account chose (a code of the contract's LANGUAGES); null until it chooses one. */
    language: string | null;
    /** A channel of another server (migration 0060): its actor's id, its page, its inboxes; null for the site's own accounts. */
    remote_actor_id: string | null;
    remote_url: string | null;
    remote_inbox: string | null;
    remote_shared_inbox: string | null;
    created_at: number;
    updated_at: number;
  };
  /** Links mailed to an account, by a hash of their token: `reset` (password) or `verify` (the address in `email`). */
  account_tokens: {
    token_hash: string;
    user_id: string;
    purpose: 'reset' | 'verify';
    email: string;
    created_at: number;
    expires_at: number;
    used_at: number | null;
  };
  /** A mail waiting to be sent; composed (subject and bodies) on its job's first attempt, removed once sent. */
  mails: {
    id: string;
    kind: 'password-reset' | 'verify-email';
    to_address: string;
    user_id: string | null;
    /** The site's address the mail's links start with. */
    link_base: string;
    subject: string | null;
    text_body: string | null;
    html_body: string | null;
    /** The language of the request that asked for the mail, for an account that has chosen none. */
    language: string | null;
    created_at: number;
  };
  sessions: {
    id: string;
    user_id: string;
    user_agent: string | null;
    created_at: number;
    last_used_at: number;
    expires_at: number;
    revoked_at: number | null;
    /** The client address at sign-in or the last refresh; null for sessions older than the column. */
    ip: string | null;
  };
  refresh_tokens: {
    token_hash: string;
    session_id: string;
    created_at: number;
    used_at: number | null;
  };
  /** One row per passkey (WebAuthn credential) of an account. */
  passkeys: {
    id: string;
    user_id: string;
    /** The credential's id as the authenticator made it (base64url). */
    credential_id: string;
    /** The credential's COSE public key, base64url. */
    public_key: string;
    /** The authenticator's signature counter at its last use; 0 for authenticators that keep none. */
    counter: number;
    /** How the browser may reach the authenticator ("internal", "usb", "hybrid"...), comma-separated. */
    transports: string;
    name: string;
    created_at: number;
    last_used_at: number | null;
  };
  /** A provider account (single sign-on) linked to an account: one person at one provider, by its `sub`. */
  user_identities: {
    id: string;
    user_id: string;
    /** The provider's name in OIDC_PROVIDERS. */
    provider: string;
    subject: string;
    email: string | null;
    created_at: number;
    last_used_at: number | null;
  };
  /** Single sign-ons under way, by a hash of their state; deleted when the provider sends the browser back. */
  sign_in_flows: {
    state_hash: string;
    provider: string;
    code_verifier: string;
    nonce: string;
    redirect_uri: string;
    return_to: string;
    link_user_id: string | null;
    expires_at: number;
  };
  /** Challenges handed out for passkey registration (with the account) or sign-in; deleted when used. */
  passkey_challenges: {
    challenge: string;
    purpose: 'registration' | 'authentication';
    user_id: string | null;
    expires_at: number;
  };
  /** An account's two-factor sign-in (TOTP); secrets are encrypted with a key made from the signing secret. */
  two_factor: {
    user_id: string;
    /** The secret in use once turned on; null while only set up. */
    secret: string | null;
    /** A secret set up and not yet confirmed with a code. */
    pending_secret: string | null;
    enabled_at: number | null;
    /** The TOTP time step of the last code accepted: that code and older ones are refused. */
    last_step: number | null;
    /** Wrong codes since failures_since, for the per-account limit. */
    failures: number;
    failures_since: number | null;
  };
  /** Single-use recovery codes, as SHA-256 hashes. */
  two_factor_recovery_codes: { user_id: string; code_hash: string; used_at: number | null };
}
