import type { RecoveryCodes, TwoFactorSetup } from '@reelhouse/contract';
import { Passwords } from './passwords.js';
import { badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../http/errors.js';
import { codeStep, hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUrl, qrCodeDataUrl, type SecretBox } from './totp.js';
import type { TwoFactorRepository } from './two-factor.repository.js';

/** Wrong codes an account may send in a window before it must wait for the window's end. */
export const MAX_WRONG_CODES = 5;
export const WRONG_CODES_WINDOW_MS = 15 * 60_000;

/** The account as this service needs it, taken by shape so that it does not depend on UsersService. */
interface Account {
  username: string;
  password_hash: string;
  is_demo: number;
}

export interface TwoFactorDeps {
  rows: TwoFactorRepository;
  box: SecretBox;
  accounts: { getRow(userId: string): Promise<Account> };
  /** The name authenticator apps show beside the code: the site's name. */
  issuer: () => Promise<string>;
  /** At the site's cost (the standard one when not given). */
  passwords?: Passwords;
  now?: () => number;
}

/** What came with a sign-in besides the password. */
export interface SecondFactor {
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

/**
 * Two-factor sign-in with TOTP (RFC 6238): setting it up, turning it on and off, and the check made
 * at sign-in. A code is accepted once (the account's last time step is kept), recovery codes once
 * each, and wrong codes are limited per account whatever address they come from.
 */
export class TwoFactorService {
  private readonly now: () => number;
  private readonly passwords: Passwords;

  constructor(private readonly deps: TwoFactorDeps) {
    this.now = deps.now ?? Date.now;
    this.passwords = deps.passwords ?? new Passwords();
  }

  async enabled(userId: string): Promise<boolean> {
    return !!(await this.deps.rows.find(userId))?.secret;
  }

  async setup(userId: string): Promise<TwoFactorSetup> {
    const account = await this.deps.accounts.getRow(userId);
    // Everyone shares the demo account: one visitor's authenticator would lock all the others out.
    if (account.is_demo) throw forbidden('The demo account cannot use two-factor authentication');
    if (await this.enabled(userId)) throw conflict('Two-factor authentication is already on; turn it off first to set it up again');
    const secret = newTotpSecret();
    await this.deps.rows.savePending(userId, this.deps.box.seal(secret));
    const url = otpauthUrl(secret, account.username, await this.deps.issuer());
    return { secret, otpauthUrl: url, qrCode: await qrCodeDataUrl(url) };
  }

  async enable(userId: string, code: string): Promise<RecoveryCodes> {
    const row = await this.deps.rows.find(userId);
    if (row?.secret) throw conflict('Two-factor authentication is already on');
    if (!row?.pending_secret) throw badRequest('Set up two-factor authentication first (POST /users/2fa/setup)');
    this.assertNotLimited(row);
    const step = codeStep(this.deps.box.open(row.pending_secret), code, this.now());
    if (step === null) {
      await this.deps.rows.countFailure(userId, this.now(), WRONG_CODES_WINDOW_MS);
      throw badRequest('That code is not right: enter the 6 digits your authenticator app shows now', [{ path: 'code', message: 'wrong code' }]);
    }
    const codes = newRecoveryCodes();
    const done = await this.deps.rows.enable(userId, row.pending_secret, step, codes.map(hashRecoveryCode), this.now());
    if (!done) throw conflict('Two-factor authentication was set up again meanwhile; scan the new QR code');
    return { recoveryCodes: codes };
  }

  async disable(userId: string, password: string, code: string): Promise<void> {
    const row = await this.deps.rows.find(userId);
    if (!row?.secret) throw conflict('Two-factor authentication is not on');
    await this.checkProofs(userId, row, password, code);
    await this.deps.rows.remove(userId);
  }

  /** Ten fresh recovery codes in place of the old ones (used or not), for the same proofs as turning it off. */
  async newRecoveryCodes(userId: string, password: string, code: string): Promise<RecoveryCodes> {
    const row = await this.deps.rows.find(userId);
    if (!row?.secret) throw badRequest('Two-factor authentication is not on: recovery codes come with turning it on');
    await this.checkProofs(userId, row, password, code);
    const codes = newRecoveryCodes();
    await this.deps.rows.replaceRecoveryCodes(userId, codes.map(hashRecoveryCode));
    return { recoveryCodes: codes };
  }

  /**
   * The check at sign-in, after the password was found right. False: the account needs a code and
   * none came. True: no second factor is needed, or the one given is right (and is now used up).
   */
  async signInPasses(userId: string, given: SecondFactor): Promise<boolean> {
    const row = await this.deps.rows.find(userId);
    if (!row?.secret) return true;
    const code = given.code?.replace(/\s+/g, '');
    const recoveryCode = given.recoveryCode?.trim();
    if (!code && !recoveryCode) return false;
    this.assertNotLimited(row);
    const ok = code ? /^\d{6}$/.test(code) && (await this.takeCode(userId, row.secret, code)) : await this.takeRecoveryCode(userId, recoveryCode!);
    if (!ok) {
      await this.deps.rows.countFailure(userId, this.now(), WRONG_CODES_WINDOW_MS);
      throw unauthorized(code ? 'The two-factor code is not right, or was used already' : 'The recovery code is not right, or was used already');
    }
    return true;
  }

  /** The password and a code from the app or an unused recovery code (which this spends); wrong ones count against the account. */
  private async checkProofs(userId: string, row: { secret: string | null; failures: number; failures_since: number | null }, password: string, code: string) {
    const account = await this.deps.accounts.getRow(userId);
    this.assertNotLimited(row);
    if (!(await this.passwords.matches(account.password_hash, password)))
      throw badRequest('Password is incorrect', [{ path: 'password', message: 'wrong password' }]);
    const digits = code.replace(/\s+/g, '');
    const ok = /^\d{6}$/.test(digits) ? await this.takeCode(userId, row.secret!, digits) : await this.takeRecoveryCode(userId, code);
    if (!ok) {
      await this.deps.rows.countFailure(userId, this.now(), WRONG_CODES_WINDOW_MS);
      throw badRequest('That code is not right, or was used already', [{ path: 'code', message: 'wrong code' }]);
    }
  }

  private async takeCode(userId: string, sealedSecret: string, code: string): Promise<boolean> {
    const step = codeStep(this.deps.box.open(sealedSecret), code, this.now());
    return step !== null && (await this.deps.rows.takeStep(userId, step));
  }

  private takeRecoveryCode(userId: string, code: string): Promise<boolean> {
    return this.deps.rows.useRecoveryCode(userId, hashRecoveryCode(code), this.now());
  }

  private assertNotLimited(row: { failures: number; failures_since: number | null }) {
    if (row.failures < MAX_WRONG_CODES || row.failures_since === null) return;
    const waitMs = Number(row.failures_since) + WRONG_CODES_WINDOW_MS - this.now();
    if (waitMs > 0) throw tooManyRequests(Math.ceil(waitMs / 1000));
  }
}
