import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Structured logs; nothing that could carry a password, token or cookie is ever written. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    redact: {
      paths: [
        'req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]',
        '*.password', '*.oldPassword', '*.newPassword', '*.refreshToken', '*.accessToken',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
