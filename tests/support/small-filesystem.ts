// A small filesystem of a test's own (tmpfs), to fill up: the disk-full tests put the app's SQLite
// database on it. Mounting needs root (CAP_SYS_ADMIN): without it the test fails saying so, never
// skips silently.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallFilesystem {
  dir: string;
  /** Writes zeros to `name` in the filesystem until it refuses (ENOSPC); returns the bytes written. */
  fill(name: string): number;
  unmount(): void;
}

export function mountSmallFilesystem(size: string, who: string): SmallFilesystem {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${who} mounts a small tmpfs (mount -t tmpfs) to fill it: run the tests as root ` +
        '(as CI and these machines do), or in a container with CAP_SYS_ADMIN',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir]);
  let mounted = true;
  return {
    dir,
    fill(name) {
      const fd = openSync(join(dir, name), 'w');
      let written = 0;
      try {
        for (const chunkSize of [1 << 20, 1 << 12]) {
          const chunk = Buffer.alloc(chunkSize);
          for (;;) {
            try {
              written += writeSync(fd, chunk);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
              break;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return written;
    },
    unmount() {
      if (mounted) execFileSync('umount', [dir]);
      mounted = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
