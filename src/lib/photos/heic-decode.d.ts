declare module 'heic-decode' {
  /** Decodes the first image of a HEIC/HEIF file to RGBA pixels (libheif, WebAssembly). */
  export default function decode(input: { buffer: Uint8Array }): Promise<{ width: number; height: number; data: ArrayLike<number> }>;
}
