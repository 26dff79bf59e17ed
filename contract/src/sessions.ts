import { z } from 'zod';
import { Id, IsoDate } from './common.js';

export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'tv'] as const;

/**
 * One signed-in device of the caller's account (a live session), as GET /users/sessions lists it,
 * most recently active first: the device asking is active now, so it comes first.
 */
export const Device = z.object({
  _id: Id,
  /** Browser name and major version from the user agent ("Chrome 156"), or "Unknown". */
  browser: z.string(),
  /** Operating system from the user agent ("Linux", "iOS 18"), or "Unknown". */
  system: z.string(),
  /** The kind of device, when the user agent tells it. */
  device: z.enum(DEVICE_TYPES).nullable(),
  /** The client address at sign-in or the last token refresh; null for sessions older than addresses. */
  address: z.string().nullable(),
  /** When this device signed in. */
  createdAt: IsoDate,
  /** When it last refreshed its tokens (every few minutes while in use); now for the device asking. */
  lastActiveAt: IsoDate,
  /** The device making this request. */
  current: z.boolean(),
});
export type Device = z.infer<typeof Device>;

export const DeviceList = z.array(Device);
export type DeviceList = z.infer<typeof DeviceList>;

export const SessionParams = z.object({ sessionId: Id });
export type SessionParams = z.infer<typeof SessionParams>;

/** DELETE /users/sessions: how many other devices were signed out. */
export const SignedOutDevices = z.object({ signedOut: z.number().int() });
export type SignedOutDevices = z.infer<typeof SignedOutDevices>;
