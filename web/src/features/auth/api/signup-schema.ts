import { MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from '@reelhouse/contract';

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

/** Client-side checks of the signup form; an empty object means valid. */
export function validateSignup(input: SignupInput): SignupErrors {
  const errors: SignupErrors = {};
  if (!input.fullName.trim()) errors.fullName = 'Full name is required';
  if (!input.email.trim()) errors.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(input.email.trim())) errors.email = 'Enter a valid email address';
  if (!input.password) errors.password = 'Password is required';
  else if (input.password.length < MIN_PASSWORD_LENGTH) errors.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (!input.confirmPassword) errors.confirmPassword = 'Confirm password is required';
  else if (input.confirmPassword !== input.password) errors.confirmPassword = 'Passwords do not match';
  const username = input.username.trim().toLowerCase();
  if (!username) errors.username = 'Username is required';
  else if (!USERNAME_PATTERN.test(username)) errors.username = 'Username must be 3-30 characters of a-z, 0-9, _ and .';
  if (input.avatar && !isAcceptedImage(input.avatar)) errors.avatar = 'Avatar must be a png, jpeg, jpg or webp image';
  if (input.coverImage && !isAcceptedImage(input.coverImage)) errors.coverImage = 'Cover image must be a png, jpeg, jpg or webp image';
  return errors;
}
