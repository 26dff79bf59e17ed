import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, fakeApi, renderWithQueries } from '@/test/fake-api';
import { NewRecoveryCodes } from './new-recovery-codes';

const fresh = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

function openDialog() {
  renderWithQueries(<NewRecoveryCodes />);
  fireEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
  return screen.getByRole('dialog', { hidden: true });
}

function fill(dialog: HTMLElement, password: string, code: string) {
  fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: password } });
  fireEvent.change(within(dialog).getByLabelText('Code from the app, or a recovery code'), { target: { value: code } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Make new codes', hidden: true }));
}

describe('NewRecoveryCodes', () => {
  it('asks for the password and a code, then shows the new codes once', async () => {
    const bodies: unknown[] = [];
    const calls = fakeApi(({ body }) => {
      bodies.push(body);
      return { recoveryCodes: fresh };
    });
    const dialog = openDialog();
    fill(dialog, 'my password', ' 123456 ');
    expect(await within(dialog).findAllByTestId('recovery-code')).toHaveLength(10);
    expect(dialog.textContent).toContain('the old ones no longer work');
    expect(calls).toEqual(['POST /api/v1/users/2fa/recovery-codes']);
    expect(bodies).toEqual([{ password: 'my password', code: '123456' }]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'I have saved them', hidden: true }));
    expect(within(dialog).queryAllByTestId('recovery-code')).toHaveLength(0);
  });

  it("tells the server's refusal and shows no codes", async () => {
    fakeApi(() => answer(null, 400, 'Password is incorrect'));
    const dialog = openDialog();
    fill(dialog, 'wrong', '123456');
    expect(await within(dialog).findByText('Password is incorrect')).toBeTruthy();
    expect(within(dialog).queryAllByTestId('recovery-code')).toHaveLength(0);
  });
});
