import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { E2E_SSO_CLIENT } from './e2e/single-sign-on-client';

// End-to-end journeys against the built app (npm run build first): the real server on a fresh data
// directory, serving web/dist, driven by Debian's Chromium. No browser is ever downloaded.
const PORT = Number(process.env.E2E_PORT ?? 7123);
// Every server hashes passwords with argon2id at its floor: the journeys sign up and in hundreds of
// times, and the default cost would spend minutes of CPU on it (docs/decisions/0060).
const FAST_PASSWORD_HASHING = { PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_ITERATIONS: '1' };
const baseURL = `http://127.0.0.1:${PORT}`;
const screenshots = process.env.SCREENSHOTS === '1';
// Evaluated in every Playwright process; only the main one starts the server, so one directory is used.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-data-'));
process.env.E2E_DATA_DIR = dataDir;
// A second server of its own for the journey that closes sign-ups, which would otherwise refuse
// the sign-ups of journeys running beside it.
const SIGNUPS_PORT = PORT + 2;
const signupsURL = `http://127.0.0.1:${SIGNUPS_PORT}`;
const signupsDataDir = process.env.E2E_SIGNUPS_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-signups-'));
process.env.E2E_SIGNUPS_DATA_DIR = signupsDataDir;
const SIGNUPS_SPEC = '**/signups-closed.spec.ts';
// Passkeys are bound to a host name, and browsers refuse an IP address as one: the passkey journeys
// get a server of their own reached as localhost, with no PUBLIC_URL so that the host is the request's.
const PASSKEYS_PORT = PORT + 3;
const passkeysURL = `http://localhost:${PASSKEYS_PORT}`;
const passkeysDataDir = process.env.E2E_PASSKEYS_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-passkeys-'));
process.env.E2E_PASSKEYS_DATA_DIR = passkeysDataDir;
const PASSKEYS_SPECS = ['**/passkeys.spec.ts', '**/screenshots-passkeys.spec.ts'];
// A server for the mail journey: it sends mail to an SMTP server the journey itself runs on
// MAIL_SMTP_PORT (mail is off on the others, as on a site without SMTP_URL).
const MAIL_PORT = PORT + 5;
const MAIL_SMTP_PORT = PORT + 6;
process.env.E2E_MAIL_SMTP_PORT = String(MAIL_SMTP_PORT);
const mailURL = `http://127.0.0.1:${MAIL_PORT}`;
const mailDataDir = process.env.E2E_MAIL_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-mail-'));
process.env.E2E_MAIL_DATA_DIR = mailDataDir;
const MAIL_SPECS = ['**/email.spec.ts', '**/screenshots-mail.spec.ts'];
// A server with a single sign-on provider: a real OpenID Provider the journey itself runs on
// SSO_PROVIDER_PORT. Its own server, since a journey there turns password sign-in off.
const SSO_PORT = PORT + 7;
const SSO_PROVIDER_PORT = PORT + 8;
process.env.E2E_SSO_PROVIDER_PORT = String(SSO_PROVIDER_PORT);
const ssoURL = `http://127.0.0.1:${SSO_PORT}`;
const ssoDataDir = process.env.E2E_SSO_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-sso-'));
process.env.E2E_SSO_DATA_DIR = ssoDataDir;
const SSO_SPECS = ['**/single-sign-on.spec.ts', '**/screenshots-single-sign-on.spec.ts'];
// A server whose RTMP ingest is on, for the journeys that go live: the only one holding an RTMP port.
const LIVE_PORT = PORT + 9;
const LIVE_RTMP_PORT = PORT + 10;
process.env.E2E_LIVE_RTMP_PORT = String(LIVE_RTMP_PORT);
const liveURL = `http://127.0.0.1:${LIVE_PORT}`;
const liveDataDir = process.env.E2E_LIVE_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-live-'));
process.env.E2E_LIVE_DATA_DIR = liveDataDir;
const LIVE_SPECS = ['**/lives-*.spec.ts', '**/screenshots-lives*.spec.ts'];
// Two sites that federate with each other, for the journey across servers: each at its own address
// (127.0.0.2 and 127.0.0.3, both this machine's loopback), so that each is another host to the other,
// and each allowed to reach the other's private address.
const FEDERATION_A_PORT = PORT + 11;
const FEDERATION_B_PORT = PORT + 12;
const federationA = `http://127.0.0.2:${FEDERATION_A_PORT}`;
const federationB = `http://127.0.0.3:${FEDERATION_B_PORT}`;
process.env.E2E_FEDERATION_A_URL = federationA;
process.env.E2E_FEDERATION_B_URL = federationB;
const federationADataDir = process.env.E2E_FEDERATION_A_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-federation-a-'));
process.env.E2E_FEDERATION_A_DATA_DIR = federationADataDir;
const federationBDataDir = process.env.E2E_FEDERATION_B_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-federation-b-'));
process.env.E2E_FEDERATION_B_DATA_DIR = federationBDataDir;
const FEDERATION_SPECS = ['**/federation.spec.ts', '**/screenshots-federation.spec.ts'];
/** One of the pair: listening on its own address, which is also its public one. */
const federationSite = (url: string, port: number, dataDir: string) => ({
  command: 'node server/dist/main.js',
  url: `${url}/api/v1/healthcheck`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: {
    PORT: String(port),
    HOST: new URL(url).hostname,
    LIVE_INGEST: 'off',
    DATA_DIR: dataDir,
    WEB_DIST: 'web/dist',
    ...FAST_PASSWORD_HASHING,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: url,
    FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true',
    RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  },
});

export default defineConfig({
  testDir: 'e2e',
  projects: [
    {
      name: 'journeys',
      testIgnore: screenshots
        ? [...PASSKEYS_SPECS, ...MAIL_SPECS, ...SSO_SPECS, ...LIVE_SPECS, ...FEDERATION_SPECS]
        : ['**/screenshots*.spec.ts', SIGNUPS_SPEC, ...MAIL_SPECS, ...PASSKEYS_SPECS, ...SSO_SPECS, ...LIVE_SPECS, ...FEDERATION_SPECS],
      testMatch: screenshots ? ['**/screenshots*.spec.ts'] : ['**/*.spec.ts'],
    },
    { name: 'passkeys', testMatch: [screenshots ? PASSKEYS_SPECS[1]! : PASSKEYS_SPECS[0]!], use: { baseURL: passkeysURL } },
    { name: 'mail', testMatch: [screenshots ? MAIL_SPECS[1]! : MAIL_SPECS[0]!], use: { baseURL: mailURL } },
    { name: 'single sign-on', testMatch: [screenshots ? SSO_SPECS[1]! : SSO_SPECS[0]!], use: { baseURL: ssoURL } },
    {
      name: 'live',
      testMatch: [screenshots ? LIVE_SPECS[1]! : LIVE_SPECS[0]!],
      use: { baseURL: liveURL },
    },
    { name: 'federation', testMatch: [screenshots ? FEDERATION_SPECS[1]! : FEDERATION_SPECS[0]!], use: { baseURL: federationA } },
    ...(screenshots ? [] : [{ name: 'closed sign-ups', testMatch: [SIGNUPS_SPEC], use: { baseURL: signupsURL } }]),
  ],
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  workers: 2,
  // A journey that fails is run once more, and fails the suite only if it fails again; one that
  // passes the second time is listed as flaky by the test runner's summary (docs/decisions/0039).
  retries: Number(process.env.E2E_RETRIES ?? 1),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  },
  webServer: [
    federationSite(federationA, FEDERATION_A_PORT, federationADataDir),
    federationSite(federationB, FEDERATION_B_PORT, federationBDataDir),
    {
      command: 'node server/dist/main.js',
      url: `${liveURL}/api/v1/healthcheck`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(LIVE_PORT),
        HOST: '127.0.0.1',
        LIVE_INGEST: 'in-process',
        LIVE_RTMP_PORT: String(LIVE_RTMP_PORT),
        // An encoder the journey stops is taken for gone soon, so its live ends within the journey.
        LIVE_RECONNECT_SECONDS: '5',
        DATA_DIR: liveDataDir,
        WEB_DIST: 'web/dist',
        ...FAST_PASSWORD_HASHING,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: liveURL,
        ADMIN_EMAILS: 'e2e-admin@example.com',
        RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
        RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      },
    },
    {
      command: 'node server/dist/main.js',
      url: `${ssoURL}/api/v1/healthcheck`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(SSO_PORT),
        HOST: '127.0.0.1',
        LIVE_INGEST: 'off',
        DATA_DIR: ssoDataDir,
        WEB_DIST: 'web/dist',
        ...FAST_PASSWORD_HASHING,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: ssoURL,
        ADMIN_EMAILS: 'e2e-admin@example.com',
        RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
        OIDC_PROVIDERS: JSON.stringify([
          {
            name: E2E_SSO_CLIENT.name,
            label: E2E_SSO_CLIENT.label,
            issuer: `http://127.0.0.1:${SSO_PROVIDER_PORT}`,
            clientId: E2E_SSO_CLIENT.clientId,
            clientSecret: E2E_SSO_CLIENT.clientSecret,
          },
        ]),
      },
    },
    {
      command: 'node server/dist/main.js',
      url: `http://127.0.0.1:${PASSKEYS_PORT}/api/v1/healthcheck`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PASSKEYS_PORT),
        HOST: '127.0.0.1',
        // No journey goes live yet; several servers run at once and only one could hold the RTMP port.
        LIVE_INGEST: 'off',
        DATA_DIR: passkeysDataDir,
        WEB_DIST: 'web/dist',
        ...FAST_PASSWORD_HASHING,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
      },
    },
    {
      command: 'node server/dist/main.js',
      url: `${baseURL}/api/v1/healthcheck`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        // No journey goes live yet; several servers run at once and only one could hold the RTMP port.
        LIVE_INGEST: 'off',
        DATA_DIR: dataDir,
        WEB_DIST: 'web/dist',
        ...FAST_PASSWORD_HASHING,
        RATE_LIMIT_AUTH_PER_MINUTE: '1000',
        RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '1000',
        RATE_LIMIT_UPLOADS_PER_HOUR: '1000',
        RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
        RATE_LIMIT_VIEWS_PER_MINUTE: '100000',
        LOG_LEVEL: 'warn',
        // Trending worked out again every two seconds, so a journey sees the views it just counted.
        TRENDING_REFRESH_SECONDS: '2',
        // The moderation journey's admin.
        ADMIN_EMAILS: 'e2e-admin@example.com',
        // Absolute URLs, and a second origin for the journey with the client served elsewhere.
        PUBLIC_URL: baseURL,
        // Media from another origin, as from a CDN (the same server under another host name), so the
        // journeys check that the Content-Security-Policy lets a MEDIA_BASE_URL through. A CDN answers
        // CORS for the site; here the server does, for its own origin.
        MEDIA_BASE_URL: `http://localhost:${PORT}/media`,
        ALLOWED_ORIGINS: `${baseURL},http://127.0.0.1:${PORT + 1}`,
      },
    },
    ...(screenshots
      ? []
      : [
          {
            command: 'node server/dist/main.js',
            url: `${signupsURL}/api/v1/healthcheck`,
            reuseExistingServer: false,
            timeout: 60_000,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
            env: {
              PORT: String(SIGNUPS_PORT),
              HOST: '127.0.0.1',
              // No journey goes live yet; several servers run at once and only one could hold the RTMP port.
              LIVE_INGEST: 'off',
              DATA_DIR: signupsDataDir,
              WEB_DIST: 'web/dist',
              ...FAST_PASSWORD_HASHING,
              ...FAST_PASSWORD_HASHING,
              LOG_LEVEL: 'warn',
              ADMIN_EMAILS: 'e2e-admin@example.com',
              PUBLIC_URL: signupsURL,
              RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
            },
          },
        ]),
    {
      command: 'node server/dist/main.js',
      url: `${mailURL}/api/v1/healthcheck`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(MAIL_PORT),
        HOST: '127.0.0.1',
        LIVE_INGEST: 'off',
        DATA_DIR: mailDataDir,
        WEB_DIST: 'web/dist',
        ...FAST_PASSWORD_HASHING,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: mailURL,
        SMTP_URL: `smtp://127.0.0.1:${MAIL_SMTP_PORT}`,
        MAIL_FROM: 'Reelhouse <site@example.test>',
        RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
      },
    },
  ],
});
