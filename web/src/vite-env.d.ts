/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the API when the client is served from elsewhere; unset means the client's own origin. */
  readonly VITE_API_URL?: string;
  readonly VITE_DEMO_EMAIL?: string;
  readonly VITE_DEMO_PASSWORD?: string;
}
