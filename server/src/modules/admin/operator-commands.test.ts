import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { buildServer, ROOT } from '../../../test/support/processes.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { UsersRepository } from '../users/users.repository.js';
import { StartUpAccounts } from '../users/start-up-accounts.js';
import { SessionsRepository } from '../users/sessions.repository.js';
import { OperatorAccountsRepository } from './operator-accounts.repository.js';
import { OperatorCommands, OperatorError } from './operator-commands.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: 'Boss@Example.com, second@example.com' } });
});
afterAll(async () => {
  await t?.close();
});

async function run(...args: string[]) {
  const lines: string[] = [];
  const commands = new OperatorCommands({
    accounts: new OperatorAccountsRepository(t.ctx.db),
    users: new UsersRepository(t.ctx.db),
    sessions: new SessionsRepository(t.ctx.db),
  });
  await commands.run(args, (l) => lines.push(l));
  return lines.join('\n');
}
const roleOf = async (id: string) => (await t.ctx.db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;

describe('ADMIN_EMAILS', () => {
  it('makes a listed account an admin when it signs up, and no one else', async () => {
    const boss = await t.signUp({ email: 'boss@example.com' });
    const other = await t.signUp();
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: boss })).data.role).toBe('admin');
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: other })).data.role).toBe('user');
  });

  it('makes an existing listed account an admin at start-up', async () => {
    const later = await t.signUp({ email: 'later@example.com' });
    expect(await roleOf(later.id)).toBe('user');
    const restarted = { ...t.ctx, config: { ...t.ctx.config, adminEmails: ['later@example.com'] } };
    await new StartUpAccounts({
      users: new UsersRepository(restarted.db),
      logger: t.ctx.logger,
      adminEmails: restarted.config.adminEmails,
    }).ensureAdmins();
    expect(await roleOf(later.id)).toBe('admin');
  });

  it('refuses a value that is not a list of emails with one clear line', () => {
    expect(() => loadConfig({ ADMIN_EMAILS: 'boss@example.com, nobody' })).toThrow(
      'Invalid setting ADMIN_EMAILS="boss@example.com, nobody": "nobody" is not an email address',
    );
    expect(loadConfig({ ADMIN_EMAILS: ' A@b.io ,,c@d.io ' }).adminEmails).toEqual(['a@b.io', 'c@d.io']);
  });
});

describe('npm run admin', () => {
  it('grants a role by username or email, and the next request carries it', async () => {
    const u = await t.signUp();
    expect(await run('grant', u.username, 'moderator')).toBe(`${u.username} is now a moderator (was user).`);
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: u })).data.role).toBe('moderator');
    await run('grant', u.email.toUpperCase(), 'user');
    expect(await roleOf(u.id)).toBe('user');
  });

  it('refuses an unknown role, account or verb without changing anything', async () => {
    const u = await t.signUp();
    await expect(run('grant', u.username, 'king')).rejects.toThrow('role must be one of user, moderator, admin');
    await expect(run('grant', 'nobody-here', 'admin')).rejects.toThrow('No account has the username or email "nobody-here".');
    await expect(run('promote', u.username)).rejects.toBeInstanceOf(OperatorError);
    await expect(run('list-users', '--role', 'king')).rejects.toThrow('role must be one of');
    expect(await roleOf(u.id)).toBe('user');
  });

  it('resets a password, signs the account out everywhere, and the new password signs in', async () => {
    const u = await t.signUp();
    const printed = await run('reset-password', u.username);
    const password = /New password of .+: (\S+)/.exec(printed)![1]!;
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: u })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password: u.password } })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password } })).statusCode).toBe(200);
    await expect(run('reset-password', u.username, 'short')).rejects.toThrow('password must be at least 8 characters');
    await run('reset-password', u.email, 'chosen-password-9');
    expect((await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password: 'chosen-password-9' } })).statusCode).toBe(200);
  });

  it('lists accounts, optionally of one role', async () => {
    const mod = await t.signUp();
    await run('grant', mod.username, 'moderator');
    const all = await run('list-users');
    expect(all).toContain(`${mod.username}\t${mod.email}\tmoderator\tactive`);
    const mods = await run('list-users', '--role', 'moderator');
    expect(mods.split('\n').filter((l) => l.includes('@'))).toHaveLength(1);
    expect(mods).toMatch(/1 account$/);
  });

  it('runs as a command against the configured database', async () => {
    await buildServer();
    const u = await t.signUp();
    const env = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: t.dataDir,
      ...(t.ctx.dialect === 'postgres' ? { DATABASE_URL: (t.ctx.config.database as { url: string }).url } : {}),
    };
    const ok = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', 'grant', u.username, 'admin'], { cwd: ROOT, env });
    expect(ok.stdout).toContain(`${u.username} is now an admin (was user).`);
    expect(await roleOf(u.id)).toBe('admin');
    const bad = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', 'frobnicate'], { cwd: ROOT, env }).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown verb "frobnicate".');
  }, 120_000);
});
