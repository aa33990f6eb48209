/**
 * A GIF's blocks without its metadata (photo-privacy.ts): the header, logical screen descriptor
 * and global colour table, then each image (descriptor, local colour table, LZW data) with the
 * graphic control extension that goes with it, and the NETSCAPE2.0 looping extension. Comment
 * and plain text extensions, every other application extension (XMP, ICC, …) and anything
 * after the trailer are left out; the image data is copied as it is.
 */

export class MalformedGifError extends Error {}

const TRAILER = Buffer.from([0x3b]);

function colourTableBytes(packed: number): number {
  return packed & 0x80 ? 3 * (1 << ((packed & 0x07) + 1)) : 0;
}

/** Where the sub-blocks starting at `pos` end (after their zero-length terminator). */
function subBlocksEnd(gif: Buffer, pos: number): number {
  for (;;) {
    if (pos >= gif.length) throw new MalformedGifError('a block runs past the end');
    const size = gif[pos]!;
    pos += 1 + size;
    if (size === 0) return pos;
  }
}

function isLooping(block: Buffer): boolean {
  return block[2] === 11 && block.toString('latin1', 3, 14) === 'NETSCAPE2.0';
}

export function keptGifBlocks(gif: Buffer): Buffer[] {
  const signature = gif.toString('latin1', 0, 6);
  if (signature !== 'GIF87a' && signature !== 'GIF89a') throw new MalformedGifError('no GIF header');
  if (gif.length < 13) throw new MalformedGifError('cut in the screen descriptor');
  let pos = 13 + colourTableBytes(gif[10]!);
  if (pos > gif.length) throw new MalformedGifError('cut in the colour table');
  const parts = [gif.subarray(0, pos)];
  // A graphic control extension belongs to the next image or plain text: it is written just
  // before its image, and left out with a plain text (it would otherwise apply to the next frame).
  let control: Buffer | null = null;
  while (pos < gif.length) {
    const introducer = gif[pos]!;
    if (introducer === 0x3b) break;
    if (introducer === 0x2c) {
      if (pos + 11 > gif.length) throw new MalformedGifError('cut in an image descriptor');
      // The LZW minimum code size byte follows the local colour table, then the data sub-blocks.
      const end = subBlocksEnd(gif, pos + 10 + colourTableBytes(gif[pos + 9]!) + 1);
      if (control) parts.push(control);
      control = null;
      parts.push(gif.subarray(pos, end));
      pos = end;
      continue;
    }
    if (introducer !== 0x21 || pos + 2 > gif.length) throw new MalformedGifError(`no block at ${pos}`);
    const label = gif[pos + 1]!;
    const end = subBlocksEnd(gif, pos + 2);
    const block = gif.subarray(pos, end);
    if (label === 0xf9) control = block;
    else if (label === 0x01) control = null;
    else if (label === 0xff && isLooping(block)) parts.push(block);
    pos = end;
  }
  parts.push(TRAILER);
  return parts;
}
