import { describe, expect, it } from 'vitest';
import { validateSignup, type SignupInput } from './signup-schema';

const valid: SignupInput = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'analytical',
  confirmPassword: 'analytical',
  username: 'ada',
};

describe('validateSignup', () => {
  it('accepts a complete form without images', () => {
    expect(validateSignup(valid)).toEqual({});
  });

  it('requires every text field', () => {
    const errors = validateSignup({ fullName: ' ', email: '', password: '', confirmPassword: '', username: '' });
    expect(Object.keys(errors).sort()).toEqual(['confirmPassword', 'email', 'fullName', 'password', 'username']);
  });

  it('wants at least 8 password characters', () => {
    expect(validateSignup({ ...valid, password: 'short12', confirmPassword: 'short12' }).password).toBe('Password must be at least 8 characters');
    expect(validateSignup({ ...valid, password: '12345678', confirmPassword: '12345678' }).password).toBeUndefined();
  });

  it("says 'Passwords do not match' when confirmation differs", () => {
    expect(validateSignup({ ...valid, confirmPassword: 'analyticaL' }).confirmPassword).toBe('Passwords do not match');
  });

  it('checks email shape and username characters', () => {
    expect(validateSignup({ ...valid, email: 'nope' }).email).toBeDefined();
    expect(validateSignup({ ...valid, username: 'a b' }).username).toBeDefined();
    expect(validateSignup({ ...valid, username: 'Ada_99' }).username).toBeUndefined();
  });

  it('accepts png, jpeg, jpg and webp images only', () => {
    const img = (name: string, type: string) => new File([new Uint8Array([1])], name, { type });
    expect(validateSignup({ ...valid, avatar: img('a.png', 'image/png'), coverImage: img('c.webp', 'image/webp') })).toEqual({});
    expect(validateSignup({ ...valid, avatar: img('a.jpg', 'image/jpeg') })).toEqual({});
    expect(validateSignup({ ...valid, avatar: img('a.gif', 'image/gif') }).avatar).toBeDefined();
    expect(validateSignup({ ...valid, coverImage: img('c.svg', 'image/svg+xml') }).coverImage).toBeDefined();
  });
});
