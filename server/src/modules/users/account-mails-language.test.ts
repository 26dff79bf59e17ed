import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkToken, type MailServer, startMailServer } from '../../../test/support/mail-server.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

/**
 * Account mails through a real SMTP server, in the recipient account's language, else the language
 * of the request that asked for them, else English.
 */
const API = '/api/v1';
const PUBLIC_URL = 'https://video.example.test';

let t: TestApp;
let mail: MailServer;
beforeAll(async () => {
  mail = await startMailServer();
  t = await createTestApp({ serveSourceAsIs: false, env: { SMTP_URL: mail.url, MAIL_FROM: 'Reelhouse <site@example.test>', PUBLIC_URL } });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const setLanguage = (as: SignedIn, language: string | null) => t.call({ method: 'PATCH', url: `${API}/users/language`, as, payload: { language } });
const forgot = (email: string, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: `${API}/users/forgot-password`, headers, payload: { email } });

describe('account mails in the reader’s language', () => {
  it('mails a French account in French, whatever the request asked, with a link that works', async () => {
    const u = await t.signUp();
    expect((await setLanguage(u, 'fr')).statusCode).toBe(200);
    // The account's own choice wins over the language of the request that asked.
    expect((await forgot(u.email, { 'accept-language': 'ja' })).statusCode).toBe(200);
    const received = await mail.next(u.email, 'Réinitialisez votre mot de passe');
    expect(received.text).toContain(`Quelqu’un, vous sans doute, a demandé à réinitialiser le mot de passe du compte ${u.username}.`);
    expect(received.text).toContain(`Choisir un nouveau mot de passe : ${PUBLIC_URL}/reset-password?token=`);
    expect(received.text).toContain('Le lien ne fonctionne qu’une fois, pendant 60 minutes.');
    expect(received.html).toContain('<html lang="fr">');
    expect(received.html).toContain('>Choisir un nouveau mot de passe</a>');
    const { token } = linkToken(received, '/reset-password');
    const reset = await t.call({ method: 'POST', url: `${API}/users/reset-password`, payload: { token, newPassword: 'nouveau-cheval-2' } });
    expect(reset.statusCode).toBe(200);
  });

  it('mails an account that chose none in the language of the request (es-MX gets Spanish)', async () => {
    const u = await t.signUp();
    await forgot(u.email, { 'accept-language': 'es-MX,es;q=0.9,en;q=0.6' });
    const received = await mail.next(u.email, 'Restablece tu contraseña');
    expect(received.text).toContain(`Elegir una contraseña nueva: ${PUBLIC_URL}/reset-password?token=`);
    expect(received.html).toContain('<html lang="es">');
  });

  it('mails in English, exactly as before, when neither the account nor the request names a language it speaks', async () => {
    const u = await t.signUp();
    await setLanguage(u, 'de');
    await setLanguage(u, null);
    await forgot(u.email, { 'accept-language': 'zh-TW' });
    const received = await mail.next(u.email, 'Reset your password');
    expect(received.text).toBe(
      `Someone, hopefully you, asked to reset the password of the account ${u.username}.\n\n` +
        `Choose a new password: ${linkToken(received, '/reset-password').url.href}\n\n` +
        'The link works once, for 60 minutes. If you did not ask, ignore this mail: your password stays as it is.\n',
    );
    expect(received.html).toMatch(/^<!doctype html><html><body /);
  });

  it('mails a new address of a Japanese account in Japanese', async () => {
    const u = await t.signUp();
    await setLanguage(u, 'ja');
    const moved = `moved-${u.username}@example.com`;
    const res = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: u, payload: { email: moved } });
    expect(res.statusCode).toBe(200);
    const received = await mail.next(moved, 'メールアドレスの確認');
    expect(received.text).toContain(`アカウント ${u.username} で、今後このメールアドレスを使うよう変更がリクエストされました。`);
    expect(received.text).toContain(`このメールアドレスを確認する：${PUBLIC_URL}/verify-email?token=`);
    expect(received.text).toContain('このリンクは1回限り、48時間有効です。');
    const { token } = linkToken(received, '/verify-email');
    const verified = await t.call({ method: 'POST', url: `${API}/users/verify-email`, payload: { token } });
    expect(verified.statusCode).toBe(200);
    expect(verified.data).toMatchObject({ email: moved, language: 'ja' });
  });

  it('mails a sign-up made in Arabic its confirmation in Arabic, right to left', async () => {
    const n = `ar${Date.now() % 1e6}${Math.floor(Math.random() * 1e4)}`;
    const form = new FormData();
    for (const [k, v] of Object.entries({ username: `u${n}`, email: `u${n}@example.com`, password: 'correct-horse-1', fullName: 'Layla' })) form.append(k, v);
    const res = await t.call({ method: 'POST', url: `${API}/users/register`, headers: { 'accept-language': 'ar-EG' }, payload: form });
    expect(res.statusCode).toBe(201);
    // Asking in a language is not choosing it for the account.
    expect(res.data.language).toBeNull();
    const received = await mail.next(`u${n}@example.com`, 'تأكيد عنوان بريدك الإلكتروني');
    expect(received.text).toContain(`أكّد أن هذا العنوان يخص الحساب u${n}.`);
    expect(received.text).toContain('يعمل الرابط مرة واحدة فقط، لمدة 48 ساعة.');
    expect(received.html).toContain('<html lang="ar" dir="rtl">');
  });
});
