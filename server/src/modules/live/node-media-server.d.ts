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
  /** A session the broadcast feeds: `protocol: 'flv'` gets the FLV header, then every tag; an empty ip marks an internal one. */
  interface NmsSubscriber {
    id: string;
    ip: string;
    protocol: 'flv';
    streamPath: string;
    endTime: number;
    sendBuffer(buffer: Buffer): void;
  }
  interface NmsBroadcast {
    publisher: RtmpSession | null;
    _publishGraceTimer: unknown;
    postPlay(session: NmsSubscriber): string | null;
    donePlay(session: NmsSubscriber): void;
  }
  const Context: {
    config: Record<string, unknown>;
    broadcasts: Map<string, NmsBroadcast>;
    eventEmitter: EventEmitter;
  };
  export default Context;
}

declare module 'node-media-server/src/core/logger.js' {
  const logger: { log: (message: string, level?: string) => void };
  export default logger;
}

declare module 'node-media-server/src/core/avpacket.js' {
  export default class AVPacket {
    codec_id: number;
    codec_type: number;
    flags: number;
    pts: number;
    dts: number;
    size: number;
    data: Buffer;
  }
}

declare module 'node-media-server/src/protocol/rtmp_client.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';
  /** An RTMP client (the tests' enhanced RTMP encoder). */
  export default class RtmpClient {
    onCloseCallback: (hadError: boolean) => void;
    connect(url: string): Promise<void>;
    sendConnect(): Promise<unknown>;
    sendCreateStream(): Promise<number>;
    sendPublish(streamName: string): Promise<unknown>;
    sendMetaData(metaData: Record<string, unknown>): void;
    sendPacket(packet: AVPacket): void;
    disconnect(): void;
  }
}
