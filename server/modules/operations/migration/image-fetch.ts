import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * The importer's download of an image URL named in the export. The export is not trusted: the
 * URL may point anywhere, so only http(s) is fetched, never from a loopback, private,
 * link-local or otherwise reserved address (checked on the address connected to, after the
 * name is resolved, so a name that resolves differently later gains nothing), redirects are
 * not followed (a 3xx is a failed image), the whole download has a deadline and the body is
 * cut off once it passes the cap, whatever Content-Length said.
 */
export interface ImageFetchLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Allow loopback and private addresses (tests serve images from 127.0.0.1). */
  allowPrivateAddresses: boolean;
}

/** Why an image was not fetched, in words for the import's report. */
export class ImageFetchError extends Error {}

const RESERVED = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  RESERVED.addSubnet(address, prefix, 'ipv4');
// IPv4-mapped addresses (::ffff:a.b.c.d) are checked against the IPv4 ranges by BlockList itself;
// NAT64, 6to4 and Teredo addresses embed an IPv4 address and are refused whole.
for (const [address, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  RESERVED.addSubnet(address, prefix, 'ipv6');

export function isReservedAddress(address: string): boolean {
  const family = net.isIP(address);
  return family === 0 || RESERVED.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** dns.lookup that refuses a name resolving to a reserved address (the socket connects to what it returns). */
function publicLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const reserved = addresses.find((a) => isReservedAddress(a.address));
    if (reserved || addresses.length === 0)
      return callback(new ImageFetchError(`${hostname} resolves to ${reserved?.address ?? 'nothing'}, a private or reserved address`), '');
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

function failure(err: unknown, limits: ImageFetchLimits, deadline: AbortSignal): ImageFetchError {
  if (err instanceof ImageFetchError) return err;
  if (deadline.aborted) return new ImageFetchError(`not fetched within ${limits.timeoutMs} ms`);
  const e = err as NodeJS.ErrnoException;
  return new ImageFetchError(e.code ?? e.message);
}

/** The body of an image URL, at most `limits.maxBytes`; throws ImageFetchError saying why not. */
export async function fetchImageBytes(raw: string, limits: ImageFetchLimits): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImageFetchError('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImageFetchError(`${url.protocol} URLs are not fetched`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is connected to without a lookup.
  if (net.isIP(host) && !limits.allowPrivateAddresses && isReservedAddress(host))
    throw new ImageFetchError(`${host} is a private or reserved address`);
  const request = url.protocol === 'https:' ? https.get : http.get;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: http.IncomingMessage | undefined;
  try {
    response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request(
        url,
        { signal, agent: false, headers: { accept: 'image/*' }, ...(limits.allowPrivateAddresses ? {} : { lookup: publicLookup }) },
        resolve,
      ).on('error', reject);
    });
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400) throw new ImageFetchError(`redirect (HTTP ${status}) not followed`);
    if (status !== 200) throw new ImageFetchError(`HTTP ${status}`);
    const tooLarge = () => new ImageFetchError(`larger than ${limits.maxBytes} bytes`);
    if (Number(response.headers['content-length']) > limits.maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
  } catch (err) {
    throw failure(err, limits, signal);
  } finally {
    response?.destroy();
  }
}
