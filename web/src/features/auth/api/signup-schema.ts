import { MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/webp'] as const;
export const IMAGE_ACCEPT = '.png,.jpeg,.jpg,.webp,image/png,image/jpeg,image/webp';
const IMAGE_EXTENSIONS = ['png', 'jpeg', 'jpg', 'webp'];
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SignupInput {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  username: string;
  avatar?: File | null;
  coverImage?: File | null;
}

export type SignupErrors = Partial<Record<keyof SignupInput, string>>;

export function isAcceptedImage(file: File): boolean {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (IMAGE_TYPES as readonly string[]).includes(file.type) || (!file.type && IMAGE_EXTENSIONS.includes(ext));
}

/** Client-side checks of the signup form, in the interface's language; an empty object means valid. */
export function validateSignup(input: SignupInput): SignupErrors {
  const errors: SignupErrors = {};
  if (!input.fullName.trim()) errors.fullName = i18n.t('auth:validation.fullNameRequired');
  if (!input.email.trim()) errors.email = i18n.t('auth:emailRequired');
  else if (!EMAIL_PATTERN.test(input.email.trim())) errors.email = i18n.t('auth:validation.emailInvalid');
  if (!input.password) errors.password = i18n.t('auth:passwordRequired');
  else if (input.password.length < MIN_PASSWORD_LENGTH) errors.password = i18n.t('auth:validation.passwordTooShort', { count: MIN_PASSWORD_LENGTH });
  if (!input.confirmPassword) errors.confirmPassword = i18n.t('auth:validation.confirmPasswordRequired');
  else if (input.confirmPassword !== input.password) errors.confirmPassword = i18n.t('auth:validation.passwordsDiffer');
  const username = input.username.trim().toLowerCase();
  if (!username) errors.username = i18n.t('auth:validation.usernameRequired');
  else if (!USERNAME_PATTERN.test(username)) errors.username = i18n.t('auth:validation.usernameInvalid');
  if (input.avatar && !isAcceptedImage(input.avatar)) errors.avatar = i18n.t('auth:validation.avatarType');
  if (input.coverImage && !isAcceptedImage(input.coverImage)) errors.coverImage = i18n.t('auth:validation.coverImageType');
  return errors;
}
