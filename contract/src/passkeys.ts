import { z } from 'zod';
import { Id, IsoDate } from './common.js';

/** One passkey of the caller's account, as GET /users/passkeys lists it, newest first. */
export const Passkey = z.object({
  _id: Id,
  /** The name given when it was added, or the browser and system it was added from ("Chrome on Linux"). */
  name: z.string(),
  createdAt: IsoDate,
  /** When it last signed in; null if it never has. */
  lastUsedAt: IsoDate.nullable(),
});
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyList = z.array(Passkey);
export type PasskeyList = z.infer<typeof PasskeyList>;

export const PasskeyParams = z.object({ passkeyId: Id });
export type PasskeyParams = z.infer<typeof PasskeyParams>;

export const PASSKEY_NAME_MAX = 60;

/** Binary fields of a WebAuthn answer, base64url as browsers' toJSON() and SimpleWebAuthn give them. */
const B64 = (field: string, max = 16_384) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(max, `${field} is too long`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${field} must be base64url`);

/**
 * Options for the browser's navigator.credentials.create() or get() (PublicKeyCredential
 * creation or request options in their JSON form, as @simplewebauthn/browser takes them).
 */
export const PasskeyOptions = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
  rp: z.looseObject({ id: z.string().optional() }).optional(),
});
export type PasskeyOptions = z.infer<typeof PasskeyOptions>;

const credentialFields = {
  id: B64('response.id', 2048),
  rawId: B64('response.rawId', 2048),
  type: z.literal('public-key', { error: 'response.type must be "public-key"' }),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

/** What navigator.credentials.create() answered, in its JSON form. */
export const PasskeyRegistrationResponse = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: B64('response.response.clientDataJSON'),
    attestationObject: B64('response.response.attestationObject', 65_536),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});

/** POST /users/passkeys: the new credential, and a name for it (else one is made from the browser). */
export const AddPasskeyBody = z.object({
  response: PasskeyRegistrationResponse,
  name: z.string().trim().min(1, 'name must not be blank').max(PASSKEY_NAME_MAX, `name must be at most ${PASSKEY_NAME_MAX} characters`).optional(),
});
export type AddPasskeyBody = z.infer<typeof AddPasskeyBody>;

/** What navigator.credentials.get() answered, in its JSON form. */
export const PasskeyAuthenticationResponse = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: B64('response.response.clientDataJSON'),
    authenticatorData: B64('response.response.authenticatorData'),
    signature: B64('response.response.signature'),
    userHandle: B64('response.response.userHandle', 512).optional(),
  }),
});

/** POST /users/login/passkey. */
export const PasskeyLoginBody = z.object({ response: PasskeyAuthenticationResponse });
export type PasskeyLoginBody = z.infer<typeof PasskeyLoginBody>;
