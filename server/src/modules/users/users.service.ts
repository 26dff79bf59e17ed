import type { Channel, Language, RegisterFields, UpdateAccountBody, User } from '@reelhouse/contract';
import type { Logger } from 'pino';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized, usernameTaken } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import { newId, toIso } from '../../lib/ids.js';
import { type Storage, userPrefix, videoPrefix } from '../../storage/storage.js';
import { type DefaultImages, defaultImages } from '../../lib/default-images.js';
import { viewerKey } from '../../lib/viewer-key.js';
import { knownLanguage } from '../../i18n/languages.js';
import { Passwords } from './passwords.js';
import { newAccountRow } from './new-account-row.js';
import { storeAccountImage } from './account-images.js';
import type { UserRow, UsersRepository } from './users.repository.js';
import { noPublicChanges, type PublicChanges } from '../../lib/public-changes.js';

export interface UserServiceDeps {
  users: UsersRepository;
  storage: Storage;
  logger: Logger;
  /** At the site's cost (the standard one when not given). */
  passwords?: Passwords;
  /** Accounts with these emails are admins (ADMIN_EMAILS). */
  adminEmails?: readonly string[];
  defaultImages?: DefaultImages;
  /** Whether the demo account may sign in now (an instance setting admins change). */
  demoAccountOn?: () => Promise<boolean>;
  /** Told after a change to what a channel shows (its name, images) or an account's removal. */
  changes?: PublicChanges;
  /** Whether people sign up and in with passwords and passkeys (admins always may); an instance setting. */
  passwordSignInOn?: () => Promise<boolean>;
  /** Whether the account signs in with a second factor, for its own view of itself. */
  twoFactorEnabled?: (userId: string) => Promise<boolean>;
  /** Whether addresses are checked (EMAIL_VERIFICATION), and how a new account's check is mailed. */
  verification?: {
    mode: 'off' | 'optional' | 'required';
    requestCheck(userId: string, email: string, linkBase: string, language: Language | null): Promise<void>;
  };
}

/** Accounts: sign-up, profile, images, password and deletion. Sessions live in SessionService. */
export class UsersService {
  private readonly defaults: DefaultImages;
  private readonly changes: PublicChanges;
  private readonly passwords: Passwords;

  constructor(private readonly deps: UserServiceDeps) {
    this.passwords = deps.passwords ?? new Passwords();
    this.defaults = deps.defaultImages ?? defaultImages();
    this.changes = deps.changes ?? noPublicChanges;
  }

  present(row: UserRow): User {
    return {
      _id: row.id,
      username: row.username,
      fullName: row.full_name,
      email: row.email,
      role: row.role,
      approvalPending: row.approval_pending === 1,
      emailVerified: row.email_verified_at !== null,
      language: knownLanguage(row.language),
      avatar: { url: this.imageUrl(row.avatar_key, this.defaults.avatar) },
      coverImage: { url: this.imageUrl(row.cover_key, this.defaults.cover) },
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    };
  }

  imageUrl(key: string | null, fallback: string) {
    return key ? this.deps.storage.url(key) : fallback;
  }

  async register(
    fields: RegisterFields,
    images: { avatar?: UploadedFile; coverImage?: UploadedFile },
    opts: { needsApproval?: boolean; linkBase?: string; language?: Language | null } = {},
  ): Promise<User> {
    if (this.deps.passwordSignInOn && !(await this.deps.passwordSignInOn())) {
      throw forbidden('Sign-ups with a password are turned off on this site: sign up with single sign-on');
    }
    await this.assertAvailable(fields.username, fields.email);
    const id = newId();
    // Images are decoded and re-encoded before the row exists, so a bad image rejects the sign-up
    // without leaving a user behind.
    const stored: string[] = [];
    try {
      const avatarKey = images.avatar ? await storeAccountImage(this.deps.storage, id, 'avatar', images.avatar) : null;
      if (avatarKey) stored.push(avatarKey);
      const coverKey = images.coverImage ? await storeAccountImage(this.deps.storage, id, 'coverImage', images.coverImage) : null;
      if (coverKey) stored.push(coverKey);
      const row = await this.createAccount({ id, ...fields, passwordHash: await this.passwords.hash(fields.password), avatarKey, coverKey, ...opts });
      return this.present(row);
    } catch (err) {
      await this.deps.storage.deletePrefix(userPrefix(id));
      throw err;
    }
  }

  /**
   * An account for someone a single sign-on provider vouched for: no password (Forgot password
   * sets one), the first free username from the one wanted, the address confirmed if the provider
   * says so.
   */
  async registerFromProvider(
    fields: { username: string; email: string; fullName: string; emailVerified: boolean },
    opts: { needsApproval?: boolean; linkBase?: string; language?: Language | null } = {},
  ): Promise<UserRow> {
    if (await this.deps.users.findByEmail(fields.email)) throw conflict('email exists');
    for (let attempt = 0; ; attempt++) {
      const username = await this.freeUsername(fields.username);
      try {
        return await this.createAccount({ id: newId(), ...fields, username, passwordHash: '', avatarKey: null, coverKey: null, ...opts });
      } catch (err) {
        // Another sign-up took the name meanwhile: try the next free one, a few times.
        if (attempt >= 3 || !(err instanceof AppError) || err.code !== 'USERNAME_TAKEN') throw err;
      }
    }
  }

  /** The wanted username if free, else the same with the lowest number after it that is. */
  private async freeUsername(wanted: string): Promise<string> {
    if (!(await this.deps.users.findByUsername(wanted))) return wanted;
    for (let n = 2; ; n++) {
      const suffix = String(n);
      const candidate = `${wanted.slice(0, 30 - suffix.length)}${suffix}`;
      if (!(await this.deps.users.findByUsername(candidate))) return candidate;
    }
  }

  private async createAccount(a: {
    id: string;
    username: string;
    email: string;
    fullName: string;
    passwordHash: string;
    avatarKey: string | null;
    coverKey: string | null;
    needsApproval?: boolean;
    linkBase?: string;
    /** The language of the sign-up's request, for the mail that checks the address. */
    language?: Language | null;
    /** The address was confirmed elsewhere (a provider that checked it). */
    emailVerified?: boolean;
  }): Promise<UserRow> {
    const checked = (this.deps.verification?.mode ?? 'off') !== 'off' && !a.emailVerified;
    const isAdmin = this.deps.adminEmails?.includes(a.email) ?? false;
    const now = Date.now();
    const row = newAccountRow({
      ...a,
      role: isAdmin ? 'admin' : 'user',
      approvalPending: a.needsApproval === true && !isAdmin,
      // With checks off there is nothing to confirm an address with: it counts as confirmed.
      emailVerifiedAt: checked ? null : now,
      now,
    });
    await this.deps.users.insert(row).catch(async (err) => {
      // Two sign-ups racing for one name: the unique index decides.
      await this.assertAvailable(a.username, a.email);
      throw err;
    });
    if (checked && a.linkBase) await this.deps.verification!.requestCheck(a.id, row.email, a.linkBase, a.language ?? null);
    return row;
  }

  private async assertAvailable(username: string, email: string) {
    if (await this.deps.users.findByUsername(username)) throw usernameTaken();
    if (await this.deps.users.findByEmail(email)) throw conflict('email exists');
  }

  async current(userId: string): Promise<User> {
    const user = this.present(await this.getRow(userId));
    return this.deps.twoFactorEnabled ? { ...user, twoFactorEnabled: await this.deps.twoFactorEnabled(userId) } : user;
  }

  async getRow(userId: string): Promise<UserRow> {
    const row = await this.deps.users.findById(userId);
    if (!row) throw unauthorized('Unauthorized request');
    return row;
  }

  async updateAccount(userId: string, body: UpdateAccountBody, opts: { linkBase?: string; language?: Language | null } = {}): Promise<User> {
    const row = await this.getRow(userId);
    const newEmail = body.email !== undefined && body.email !== row.email ? body.email : undefined;
    if (newEmail !== undefined) {
      if (row.is_demo) throw forbidden('The demo account cannot change its email address');
      if (await this.deps.users.findByEmail(newEmail)) throw conflict('email exists');
    }
    // Where addresses are checked, the new one is mailed a link and the old one stays until it is followed.
    const checked = newEmail !== undefined && (this.deps.verification?.mode ?? 'off') !== 'off';
    if (body.username !== undefined && body.username !== row.username) {
      if (row.is_demo) throw forbidden('The demo account cannot change its username');
      const taken = await this.deps.users.findByUsername(body.username);
      if (taken && taken.id !== userId) throw usernameTaken();
    }
    const patch = {
      ...(body.fullName !== undefined ? { full_name: body.fullName } : {}),
      ...(body.username !== undefined ? { username: body.username } : {}),
      ...(newEmail !== undefined && !checked ? { email: newEmail } : {}),
      updated_at: Date.now(),
    };
    await this.deps.users.update(userId, patch).catch(async (err) => {
      if (body.username && (await this.deps.users.findByUsername(body.username))?.id !== userId) throw usernameTaken();
      if (newEmail && (await this.deps.users.findByEmail(newEmail))?.id !== userId) throw conflict('email exists');
      throw err;
    });
    if (checked && opts.linkBase) await this.deps.verification!.requestCheck(userId, newEmail!, opts.linkBase, opts.language ?? null);
    await this.changes.changed();
    return this.current(userId);
  }

  /** Replaces the avatar or cover; the old file is removed only after the new one is in place. */
  async changeImage(userId: string, field: 'avatar' | 'coverImage', file: UploadedFile | undefined): Promise<User> {
    if (!file) throw badRequest(`${field} file is required`, [{ path: field, message: `${field} file is required` }]);
    const row = await this.getRow(userId);
    const key = await storeAccountImage(this.deps.storage, userId, field, file);
    const column = field === 'avatar' ? 'avatar_key' : 'cover_key';
    await this.deps.users.update(userId, { [column]: key, updated_at: Date.now() });
    await this.changes.changed();
    const old = row[column];
    if (old && old !== key) await this.deps.storage.delete(old);
    return this.current(userId);
  }

  async changePassword(userId: string, oldPassword: string, newPassword: string): Promise<void> {
    const row = await this.getRow(userId);
    if (row.is_demo) throw forbidden('The demo account cannot change its password');
    if (!(await this.passwords.matches(row.password_hash, oldPassword))) throw badRequest('Old password is incorrect.');
    await this.deps.users.update(userId, { password_hash: await this.passwords.hash(newPassword), updated_at: Date.now() });
  }

  /** Removes the user with every row and file they own. */
  async deleteAccount(userId: string): Promise<void> {
    const row = await this.getRow(userId);
    if (row.is_demo) throw forbidden('The demo account cannot be deleted');
    const videoIds = await this.deps.users.ownedVideoIds(userId);
    await this.deps.users.deleteWithCascade(userId, viewerKey({ userId, ip: '', userAgent: '' }));
    await this.changes.changed();
    // Rows go first: a file without a row is invisible, a row without its file is broken.
    for (const id of videoIds) await this.deps.storage.deletePrefix(videoPrefix(id));
    await this.deps.storage.deletePrefix(userPrefix(userId));
  }

  async channel(channelName: string, viewerId: string | null): Promise<Channel> {
    const row = await this.deps.users.findByUsername(channelName.trim().toLowerCase());
    // A banned account's channel is gone for everyone until it is unbanned.
    if (!row || row.banned_at !== null) throw notFound('Channel');
    return {
      _id: row.id,
      username: row.username,
      fullName: row.full_name,
      avatar: { url: this.imageUrl(row.avatar_key, this.defaults.avatar) },
      coverImage: { url: this.imageUrl(row.cover_key, this.defaults.cover) },
      subscribersCount: row.subscribers_count,
      videosCount: row.videos_count,
      isSubscribed: viewerId && viewerId !== row.id ? await this.deps.users.isSubscribed(viewerId, row.id) : false,
      createdAt: toIso(row.created_at),
      ...(row.remote_url ? { remote: true, url: row.remote_url } : {}),
    };
  }

  /** A channel as signed-out visitors see it, for this viewer: whether they follow it (one query). */
  async channelForViewer(channel: Channel, viewerId: string): Promise<Channel> {
    return { ...channel, isSubscribed: viewerId !== channel._id && (await this.deps.users.isSubscribed(viewerId, channel._id)) };
  }

  /** Checks a password for sign-in; spends the same time whether or not the email exists. */
  async verifyCredentials(email: string, password: string): Promise<UserRow> {
    const row = await this.deps.users.findByEmail(email);
    const ok = await this.passwords.matches(row?.password_hash, password);
    if (!row || !ok) throw unauthorized('Invalid email or password');
    // Told only to whoever knows the password, so the state of an account is not public.
    await this.checkMaySignIn(row, 'password');
    return row;
  }

  /** The account a verified passkey belongs to, refused for the same reasons as a password sign-in. */
  async accountForSignIn(userId: string): Promise<UserRow> {
    const row = await this.deps.users.findById(userId);
    if (!row) throw unauthorized('This passkey is not known on this site');
    await this.checkMaySignIn(row, 'passkey');
    return row;
  }

  /** The account a single sign-on provider account is linked to, refused for the same reasons (password sign-in being off aside). */
  async accountForProviderSignIn(userId: string): Promise<UserRow> {
    const row = await this.deps.users.findById(userId);
    if (!row) throw unauthorized('This account no longer exists');
    await this.checkMaySignIn(row, 'provider');
    return row;
  }

  private async checkMaySignIn(row: UserRow, how: 'password' | 'passkey' | 'provider'): Promise<void> {
    if (row.banned_at !== null) throw forbidden('This account is banned');
    if (row.approval_pending === 1) throw forbidden('Your account is waiting for an admin to approve it');
    if (this.deps.verification?.mode === 'required' && row.email_verified_at === null) {
      throw forbidden('Confirm your email address first: follow the link mailed to you (Forgot password sends a new one)');
    }
    if (row.is_demo === 1 && this.deps.demoAccountOn && !(await this.deps.demoAccountOn())) throw forbidden('The demo account is turned off on this site');
    // Admins keep their own way in, so that turning password sign-in off locks nobody out.
    if (how !== 'provider' && row.role !== 'admin' && this.deps.passwordSignInOn && !(await this.deps.passwordSignInOn())) {
      throw forbidden('Password sign-in is turned off on this site: sign in with single sign-on');
    }
  }
}
