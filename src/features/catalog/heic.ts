export { isHeic } from '../../lib/photos/prepare';

const IMAGE_EXTENSIONS = /\.(jpe?g|png|webp|gif|heic|heif|svg|bmp|tiff?|avif)$/i;

/** Anything that looks like an image is sent; the server decides by its bytes. */
export function looksLikeImage(file: File): boolean {
  return file.type.startsWith('image/') || IMAGE_EXTENSIONS.test(file.name);
}
