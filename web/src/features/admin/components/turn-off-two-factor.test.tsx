import type { AdminUser } from '@reelhouse/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToastProvider } from '@/components/ui/toast';
import { answer, fakeApi, renderWithQueries } from '@/test/fake-api';
import { TurnOffTwoFactor } from './turn-off-two-factor';

const account = (over: Partial<AdminUser> = {}): AdminUser => ({
  _id: 'user00000001',
  username: 'ana',
  fullName: 'Ana Lima',
  email: 'ana@example.com',
  role: 'user',
  banned: false,
  banReason: null,
  approvalPending: false,
  quotaBytes: null,
  dailyQuotaBytes: null,
  storageUsedBytes: 0,
  videosCount: 0,
  twoFactorEnabled: true,
  liveAllowed: false,
  createdAt: new Date().toISOString(),
  ...over,
});

const show = (user: AdminUser, self = false) =>
  renderWithQueries(
    <ToastProvider>
      <TurnOffTwoFactor user={user} self={self} />
    </ToastProvider>,
  );

describe('TurnOffTwoFactor', () => {
  it('is offered only for another account that has it on', () => {
    fakeApi(() => ({}));
    show(account({ twoFactorEnabled: false }));
    show(account(), true);
    expect(screen.queryByRole('button', { name: /Turn off two-factor/ })).toBeNull();
  });

  it('turns it off only after the confirmation, and says so', async () => {
    const calls = fakeApi(() => account({ twoFactorEnabled: false }));
    show(account());
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-factor authentication of ana' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('Ana Lima (ana@example.com)');
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off', hidden: true }));
    expect(await screen.findByText('Two-factor authentication of ana is off; they are signed out everywhere')).toBeTruthy();
    expect(calls).toEqual(['DELETE /api/v1/admin/users/user00000001/2fa']);
  });

  it("tells the server's refusal", async () => {
    fakeApi(() => answer(null, 400, 'Two-factor authentication is not on for this account'));
    show(account());
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-factor authentication of ana' }));
    fireEvent.click(within(screen.getByRole('dialog', { hidden: true })).getByRole('button', { name: 'Turn off', hidden: true }));
    await waitFor(() => expect(screen.getByText('Two-factor authentication is not on for this account')).toBeTruthy());
  });
});
