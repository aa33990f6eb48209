/** A one-line progress bar on stderr (redrawn in place on a terminal, every 10% otherwise). */
export function progressBar(label: string) {
  const tty = process.stderr.isTTY;
  let lastPercent = -1;
  return {
    update(done: number, total: number, detail = '') {
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      if (!tty && percent !== 100 && percent - lastPercent < 10) return;
      if (percent === lastPercent && !tty) return;
      lastPercent = percent;
      const width = 30;
      const filled = Math.round((percent / 100) * width);
      const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% ${done}/${total} ${detail}`;
      if (tty) process.stderr.write(`\r${line.padEnd(100)}`);
      else process.stderr.write(`${line}\n`);
    },
    done() {
      if (tty) process.stderr.write('\n');
    },
  };
}
