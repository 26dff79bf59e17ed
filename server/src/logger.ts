import pino, { type Logger } from 'pino';

/** Structured logs; nothing that could carry a password, token or cookie is ever written. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]',
        '*.password', '*.oldPassword', '*.newPassword', '*.refreshToken', '*.accessToken',
      ],
      censor: '[redacted]',
    },
  });
}
