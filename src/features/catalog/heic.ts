/**
 * Phone photos in HEIC/HEIF are converted to JPEG in the browser before upload. heic2any is
 * large, so it is loaded only when such a file is picked, and conversions run one at a time.
 */
export function isHeic(file: File): boolean {
  return /^image\/hei[cf](-sequence)?$/i.test(file.type) || /\.(heic|heif)$/i.test(file.name);
}

const IMAGE_EXTENSIONS = /\.(jpe?g|png|webp|gif|heic|heif|svg|bmp|tiff?|avif)$/i;

/** Anything that looks like an image is sent; the server decides by its bytes. */
export function looksLikeImage(file: File): boolean {
  return file.type.startsWith('image/') || IMAGE_EXTENSIONS.test(file.name);
}

let chain: Promise<unknown> = Promise.resolve();

export function convertHeic(file: File): Promise<File> {
  const run = async () => {
    const { default: heic2any } = await import('heic2any');
    const out = await heic2any({ blob: file, toType: 'image/jpeg', quality: 0.92 });
    const blob = Array.isArray(out) ? out[0]! : out;
    return new File([blob], file.name.replace(/\.(heic|heif)$/i, '') + '.jpg', { type: 'image/jpeg', lastModified: file.lastModified });
  };
  const result = chain.then(run, run);
  chain = result.catch(() => undefined);
  return result;
}
