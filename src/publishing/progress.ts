/**
 * A one-line progress bar on a terminal's standard error; nothing at all when stderr is not
 * a terminal (CI logs, a pipe), so reports stay clean.
 */
export interface Progress {
  tick(label?: string): void;
  done(): void;
}

const WIDTH = 30;

export function progressBar(total: number, what: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total === 0) return { tick() {}, done() {} };
  let count = 0;
  const draw = (label: string) => {
    const filled = Math.round((count / total) * WIDTH);
    const line = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${count}/${total} ${what} ${label}`;
    const columns = stream.columns ?? 80;
    stream.write(`\r${line.slice(0, columns - 1).padEnd(columns - 1)}`);
  };
  draw('');
  return {
    tick(label = '') {
      count++;
      draw(label);
    },
    done() {
      stream.write(`\r${' '.repeat((stream.columns ?? 80) - 1)}\r`);
    },
  };
}
