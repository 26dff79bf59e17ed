import { DEVICE_TYPES, type Device } from '@reelhouse/contract';
import Bowser from 'bowser';

export type DeviceName = Pick<Device, 'browser' | 'system' | 'device'>;

const UNKNOWN = 'Unknown';
const isDeviceType = (type: string | undefined): type is NonNullable<Device['device']> => (DEVICE_TYPES as readonly string[]).includes(type ?? '');
const major = (version: string | undefined) => version?.split('.')[0] ?? '';
const withVersion = (name: string, version: string) => (version ? `${name} ${version}` : name);

function systemName(os: Bowser.Parser.OSDetails): string {
  if (!os.name) return UNKNOWN;
  // Safari and Chrome on macOS have said "10.15.7" since 2020 whatever the real version: it tells nothing.
  if (os.name === 'macOS') return os.name;
  // Windows speaks in NT versions ("NT 10.0"); the marketing name is the one people know.
  if (os.name === 'Windows') return withVersion(os.name, os.versionName ?? '');
  return withVersion(os.name, major(os.version));
}

/** What a person recognises a device by: "Chrome 156" on "iOS 18", from its user agent. */
export function describeUserAgent(userAgent: string | null): DeviceName {
  // The parser throws on an empty string rather than saying it knows nothing.
  if (!userAgent?.trim()) return { browser: UNKNOWN, system: UNKNOWN, device: null };
  const { browser, os, platform } = Bowser.parse(userAgent);
  return {
    browser: browser.name ? withVersion(browser.name, major(browser.version)) : UNKNOWN,
    system: systemName(os),
    device: isDeviceType(platform.type) ? platform.type : null,
  };
}
