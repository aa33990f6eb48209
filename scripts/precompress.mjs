import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

// Every text asset gets .br and .gz siblings at their highest levels, once here rather than per
// request: the server (@fastify/static preCompressed) sends the one the browser accepts.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|ico)$/i;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export async function precompress(dir) {
  let raw = 0;
  let br = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const data = fs.readFileSync(file);
    if (data.length < 256) continue;
    const [b, g] = await Promise.all([
      brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
      gzip(data, { level: 9 }),
    ]);
    // A compressed copy that is not smaller would only cost bytes and a header.
    if (b.length < data.length) fs.writeFileSync(`${file}.br`, b);
    if (g.length < data.length) fs.writeFileSync(`${file}.gz`, g);
    raw += data.length;
    br += Math.min(b.length, data.length);
  }
  return { raw, br };
}
