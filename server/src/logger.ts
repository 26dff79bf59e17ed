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
  // Standard output through a 4 KiB buffer rather than one write() per line: per-request lines cost a
  // system call each otherwise. Whatever is buffered is flushed when the process exits.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}
