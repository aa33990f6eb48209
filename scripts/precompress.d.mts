/** Writes .br and .gz beside each text file under dir; returns raw and brotli byte totals. */
export function precompress(dir: string): Promise<{ raw: number; br: number }>;
