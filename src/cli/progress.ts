/** Progress on a terminal (one rewritten line on stderr); silent when stderr is not a terminal. */
export function progress(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const tty = Boolean(stream.isTTY);
  let last = 0;
  return {
    update(text: string, force = false) {
      if (!tty) return;
      const now = Date.now();
      if (!force && now - last < 100) return;
      last = now;
      stream.write(`\r\x1b[2K${label}: ${text}`);
    },
    done() {
      if (tty) stream.write('\r\x1b[2K');
    },
  };
}
