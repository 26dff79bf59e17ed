// The parts of node-media-server (CommonJS, untyped) that the RTMP ingest uses.

declare module 'node-media-server/src/session/rtmp_session.js' {
  import type net from 'node:net';
  export interface RtmpSession {
    ip: string;
    socket: net.Socket;
    streamApp: string;
    streamName: string;
    streamPath: string;
    inBytes: number;
    videoCodec: number | string;
    videoWidth: number;
    videoHeight: number;
    videoFramerate: number;
    audioCodec: number | string;
    run(): void;
    close(): void;
  }
  const RtmpSessionClass: new (socket: net.Socket) => RtmpSession;
  export default RtmpSessionClass;
}

declare module 'node-media-server/src/core/context.js' {
  import type { EventEmitter } from 'node:events';
  import type { RtmpSession } from 'node-media-server/src/session/rtmp_session.js';
  const Context: {
    config: Record<string, unknown>;
    broadcasts: Map<string, { publisher: RtmpSession | null; _publishGraceTimer: unknown }>;
    eventEmitter: EventEmitter;
  };
  export default Context;
}

declare module 'node-media-server/src/core/logger.js' {
  const logger: { log: (message: string, level?: string) => void };
  export default logger;
}
