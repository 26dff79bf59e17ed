import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Structured logs; nothing that could carry a password, token or cookie is ever written. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.oldPassword',
        '*.newPassword',
        '*.refreshToken',
        '*.accessToken',
      ],
      censor: '[redacted]',
    },
  };
  // Standard output written asynchronously: lines logged while a write is in flight go out together in
  // the next one, so a busy server does not pay a system call per line. No minimum length: a quiet
  // process's lines still appear at once (operators tail them, and supervisors wait for them).
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
