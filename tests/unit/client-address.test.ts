import { describe, expect, it } from 'vitest';
import { clientKey } from '../../server/platform/http/client-address';

describe('the client key of per-address limits', () => {
  it('keeps an IPv4 address as it is, and reads an IPv4-mapped IPv6 address as IPv4', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('reduces IPv6 to its /64, whatever the spelling', () => {
    const key = '2001:db8:1:2::/64';
    for (const spelling of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:DB8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2::',
      '2001:db8:1:2:0:0:192.0.2.1',
      '[2001:db8:1:2::9]',
    ])
      expect(clientKey(spelling), spelling).toBe(key);
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8::1:2:3:4')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8:0:0:1::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::')).toBe('0:0:0:0::/64');
  });

  it('drops a zone id', () => {
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('fe80::abcd:1%25')).toBe(clientKey('fe80::2'));
  });

  it('never mistakes one network for another, and keeps what is not an address', () => {
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:20::1'));
    expect(clientKey('::203.0.113.7')).not.toBe('203.0.113.7');
    expect(clientKey('not an address')).toBe('not an address');
    expect(clientKey('')).toBe('unknown');
    expect(clientKey(undefined)).toBe('unknown');
  });
});
