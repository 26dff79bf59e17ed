import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '@/lib/auth';
import { answer, fakeApi, renderWithQueries, type FakeCall } from '@/test/fake-api';
import { EmailSection } from './email-section';

const account = (over: Record<string, unknown> = {}) => ({
  _id: 'user00000001',
  username: 'ana',
  fullName: 'Ana',
  email: 'ana@example.com',
  role: 'user',
  approvalPending: false,
  emailVerified: true,
  avatar: { url: '/a.png' },
  coverImage: { url: '/c.png' },
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});
const instance = (email: { enabled: boolean; verification: string }) => ({ name: 'Reelhouse', email });

/** A fake server with one account; `onChange` answers the address change, `onResend` the resend. */
function serve(opts: {
  me: ReturnType<typeof account>;
  mail: { enabled: boolean; verification: string };
  onChange?: (call: FakeCall) => unknown;
  onResend?: () => unknown;
}) {
  return fakeApi((call) => {
    if (call.path.endsWith('/instance')) return instance(opts.mail);
    if (call.path.endsWith('/users/user/current')) return opts.me;
    if (call.path.endsWith('/users/update-account')) return opts.onChange?.(call);
    if (call.path.endsWith('/users/resend-verification')) return opts.onResend?.();
    return answer(null, 404, 'Not found');
  });
}

const show = () =>
  renderWithQueries(
    <AuthProvider>
      <EmailSection />
    </AuthProvider>,
  );

async function changeTo(email: string) {
  fireEvent.change(await screen.findByLabelText('New email address'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Change address' }));
}

describe('EmailSection', () => {
  it('shows an unconfirmed address with a button that sends the link again and tells the answer', async () => {
    const calls = serve({
      me: account({ emailVerified: false }),
      mail: { enabled: true, verification: 'optional' },
      onResend: () => answer({}, 200, 'A new confirmation link is on its way'),
    });
    show();
    expect((await screen.findByTestId('account-email')).textContent).toBe('ana@example.com');
    expect(await screen.findByText('Not confirmed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText('A new confirmation link is on its way')).toBeTruthy();
    expect(calls).toContain('POST /api/v1/users/resend-verification');
  });

  it('tells the rate limit when the link was asked for too often', async () => {
    serve({
      me: account({ emailVerified: false }),
      mail: { enabled: true, verification: 'required' },
      onResend: () => answer(null, 429, 'Too many requests, try again in 3000 s'),
    });
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText('Too many requests, try again in 3000 s')).toBeTruthy();
  });

  it('keeps the old address while the new one waits for its link', async () => {
    const calls = serve({ me: account(), mail: { enabled: true, verification: 'optional' }, onChange: () => account() });
    show();
    expect(await screen.findByText('Confirmed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send the link again' })).toBeNull();
    await changeTo('Ana.New@Example.com');
    expect(await screen.findByText('We sent a link to ana.new@example.com; your address changes when you follow it.')).toBeTruthy();
    expect(screen.getByTestId('account-email').textContent).toBe('ana@example.com');
    expect(calls).toContain('PATCH /api/v1/users/update-account');
  });

  it('changes the address at once on a site without mail, with no confirmation state or resend', async () => {
    let me = account();
    const sent: unknown[] = [];
    serve({
      me,
      mail: { enabled: false, verification: 'off' },
      onChange: (call) => {
        sent.push(call.body);
        me = account({ email: (call.body as { email: string }).email });
        return me;
      },
    });
    show();
    await screen.findByTestId('account-email');
    expect(screen.queryByText('Confirmed')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send the link again' })).toBeNull();
    expect(screen.getByText('The new address takes effect at once.')).toBeTruthy();
    await changeTo('ana2@example.com');
    expect(await screen.findByText('Your email address is now ana2@example.com.')).toBeTruthy();
    expect(screen.getByTestId('account-email').textContent).toBe('ana2@example.com');
    expect(sent).toEqual([{ email: 'ana2@example.com' }]);
  });

  it('says clearly when another account uses the address, or the server refuses it', async () => {
    let refusal = answer(null, 409, 'email exists');
    serve({ me: account(), mail: { enabled: true, verification: 'optional' }, onChange: () => refusal });
    show();
    await changeTo('taken@example.com');
    expect(await screen.findByText('Another account uses that address')).toBeTruthy();
    refusal = answer(null, 400, 'email must be a valid email address');
    await changeTo('nope');
    await waitFor(() => expect(screen.getByText('email must be a valid email address')).toBeTruthy());
    expect(screen.getByTestId('account-email').textContent).toBe('ana@example.com');
  });
});
