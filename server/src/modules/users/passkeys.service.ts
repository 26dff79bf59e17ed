import type { AddPasskeyBody, Passkey, PasskeyLoginBody, PasskeyOptions } from '@reelhouse/contract';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AuthUser } from '../../http/auth.js';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import { describeUserAgent } from './device-names.js';
import type { PasskeysRepository } from './passkeys.repository.js';
import type { RelyingParty } from './relying-party.js';
import type { UserRow } from './users.repository.js';

/** How long the browser's prompt may stay open; the challenge lives as long. */
const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Enough for every device and security key a person has, few enough that the list stays a list. */
const MAX_PASSKEYS = 20;

export interface PasskeysDeps {
  passkeys: PasskeysRepository;
  /** The account a passkey signs in to, refused for the reasons a password sign-in is. */
  accountForSignIn(userId: string): Promise<UserRow>;
  /** The site's name, shown by the browser's passkey prompt. */
  siteName(): Promise<string>;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');

/**
 * Passkeys (WebAuthn discoverable credentials): adding them to an account, and signing in with one
 * without typing an email. A passkey proves possession of the device and (with user verification)
 * the person at it, so it is a whole sign-in on its own.
 */
export class PasskeysService {
  constructor(private readonly deps: PasskeysDeps) {}

  async registrationOptions(user: AuthUser, rp: RelyingParty): Promise<PasskeyOptions> {
    if (user.isDemo) throw forbidden('The demo account cannot add passkeys');
    const existing = await this.deps.passkeys.listByUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: await this.deps.siteName(),
      rpID: rp.id,
      userName: user.username,
      userDisplayName: user.username,
      // The handle a discoverable credential gives back at sign-in: the account's id, never its email.
      userID: bytes(user.id),
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: splitTransports(p.transports) })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    });
    await this.keepChallenge(options.challenge, 'registration', user.id);
    return options as unknown as PasskeyOptions;
  }

  async add(user: AuthUser, body: AddPasskeyBody, rp: RelyingParty, userAgent: string | null): Promise<Passkey> {
    if (user.isDemo) throw forbidden('The demo account cannot add passkeys');
    const existing = await this.deps.passkeys.listByUser(user.id);
    if (existing.length >= MAX_PASSKEYS) throw conflict(`An account can have at most ${MAX_PASSKEYS} passkeys; remove one first`);
    const now = Date.now();
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge: (challenge) => this.deps.passkeys.takeChallenge(challenge, 'registration', user.id, now),
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch (err) {
      throw badRequest(`The passkey could not be verified: ${reason(err)}`);
    }
    if (!verified.verified) throw badRequest('The passkey could not be verified');
    const { credential } = verified.registrationInfo;
    if (await this.deps.passkeys.findByCredentialId(credential.id)) throw conflict('This passkey is already added to an account');
    const id = newId();
    const name = body.name ?? defaultName(userAgent);
    await this.deps.passkeys.create({
      id,
      userId: user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).join(','),
      name,
      now,
    });
    return { _id: id, name, createdAt: toIso(now), lastUsedAt: null };
  }

  async list(userId: string): Promise<Passkey[]> {
    const rows = await this.deps.passkeys.listByUser(userId);
    return rows.map((r) => ({ _id: r.id, name: r.name, createdAt: toIso(r.created_at), lastUsedAt: r.last_used_at === null ? null : toIso(r.last_used_at) }));
  }

  async remove(userId: string, passkeyId: string): Promise<void> {
    if (!(await this.deps.passkeys.remove(userId, passkeyId))) throw notFound('Passkey');
  }

  /** Options for a sign-in with any passkey of this site: no list of credentials, the browser offers what it has. */
  async authenticationOptions(rp: RelyingParty): Promise<PasskeyOptions> {
    const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_TTL_MS });
    await this.keepChallenge(options.challenge, 'authentication', null);
    return options as unknown as PasskeyOptions;
  }

  /** Verifies a sign-in with a passkey and answers the account it belongs to. */
  async signIn(body: PasskeyLoginBody, rp: RelyingParty): Promise<UserRow> {
    const response = body.response as unknown as AuthenticationResponseJSON;
    const passkey = await this.deps.passkeys.findByCredentialId(response.id);
    if (!passkey) throw unauthorized('This passkey is not known on this site');
    // A discoverable credential names its account; it must be the one the passkey was added to.
    if (response.response.userHandle !== undefined && response.response.userHandle !== Buffer.from(passkey.user_id).toString('base64url')) {
      throw unauthorized('This passkey is not known on this site');
    }
    const now = Date.now();
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (challenge) => this.deps.passkeys.takeChallenge(challenge, 'authentication', null, now),
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: {
          id: passkey.credential_id,
          publicKey: Buffer.from(passkey.public_key, 'base64url'),
          counter: Number(passkey.counter),
          transports: splitTransports(passkey.transports),
        },
        requireUserVerification: false,
      });
    } catch (err) {
      throw unauthorized(`The passkey could not be verified: ${reason(err)}`);
    }
    if (!verified.verified) throw unauthorized('The passkey could not be verified');
    // A counter that did not move on from what was read (another sign-in with a copy of this
    // assertion or of the key got there first) is refused like a counter that went back.
    if (!(await this.deps.passkeys.recordUse(passkey.id, Number(passkey.counter), verified.authenticationInfo.newCounter, now))) {
      throw unauthorized('The passkey could not be verified: it was used again at the same moment');
    }
    return this.deps.accountForSignIn(passkey.user_id);
  }

  private async keepChallenge(challenge: string, purpose: 'registration' | 'authentication', userId: string | null) {
    const now = Date.now();
    await this.deps.passkeys.addChallenge({ challenge, purpose, userId, expiresAt: now + PASSKEY_CHALLENGE_TTL_MS }, now);
  }
}

function splitTransports(stored: string): string[] | undefined {
  return stored ? stored.split(',') : undefined;
}

/** "Chrome on Linux", from the browser that added it, when no name is given. */
function defaultName(userAgent: string | null): string {
  const { browser, system } = describeUserAgent(userAgent);
  const name = browser.replace(/\s+\d+$/, '');
  const on = system.replace(/\s+[\d.]+$/, '');
  if (name === 'Unknown') return on === 'Unknown' ? 'Passkey' : `Passkey on ${on}`;
  return on === 'Unknown' ? name : `${name} on ${on}`;
}
