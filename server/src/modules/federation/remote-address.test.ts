import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './remote-address.js';

describe('private addresses', () => {
  it.each([
    ['http://127.0.0.2:7000/inbox', true],
    ['http://localhost/inbox', true],
    ['https://10.1.2.3/inbox', true],
    ['https://172.20.0.1/inbox', true],
    ['https://192.168.1.10/inbox', true],
    ['https://169.254.169.254/latest', true],
    ['https://[::1]/inbox', true],
    ['https://[fd00::1]/inbox', true],
    ['https://[::ffff:127.0.0.1]/inbox', true],
    ['ftp://peer.example/inbox', true],
    ['not a url', true],
    ['https://93.184.215.14/inbox', false],
    ['https://[2606:4700::1111]/inbox', false],
  ])('%s is private: %s', async (url, expected) => {
    expect(await isPrivateAddress(url)).toBe(expected);
  });
});
