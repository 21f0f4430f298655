/**
 * A filesystem of a MiB or so for tests of a full disk: a tmpfs, or where tmpfs cannot be
 * mounted, an ext2 image on a loop device. Both need root, as the tests and CI run. Without either
 * the tests skip with the reason, and fail under `CI=true`. A filler file takes its free space, so
 * the disk, not a quota or a mock, is what refuses the next byte.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallFilesystem {
  /** Where it is mounted. */
  dir: string;
  kind: 'tmpfs' | 'loop';
  /** Writes a filler file until the disk refuses one more byte (ENOSPC). */
  fill(): void;
  /** Gives `bytes` of the filler back: room for a few writes. */
  free(bytes: number): void;
  /** Deletes the filler. */
  empty(): void;
  /** Unmounts and deletes everything; safe after a failure and when called twice. */
  destroy(): void;
}

const FILLER = '.filler';

/** Mounts one of `bytes` (a multiple of 4 KiB), or throws why neither kind can be mounted here. */
export function mountSmallFilesystem(bytes: number = 1024 * 1024): SmallFilesystem {
  const base = mkdtempSync(join(tmpdir(), 'switchyard-small-fs-'));
  const dir = join(base, 'mnt');
  const image = join(base, 'disk.img');
  mkdirSync(dir);
  const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe' });
  let kind: SmallFilesystem['kind'];
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
    kind = 'tmpfs';
  } catch (tmpfsError) {
    try {
      closeSync(openSync(image, 'w'));
      truncateSync(image, bytes);
      run('mkfs.ext2', ['-q', '-F', image]);
      run('mount', ['-o', 'loop', image, dir]);
      kind = 'loop';
    } catch (loopError) {
      rmSync(base, { recursive: true, force: true });
      throw new Error(
        `Cannot mount a small filesystem (tmpfs: ${firstLine(tmpfsError)}; loop: ${firstLine(loopError)})`,
        { cause: loopError },
      );
    }
  }

  const filler = join(dir, FILLER);
  let mounted = true;
  return {
    dir,
    kind,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Large pieces first, then smaller ones, down to the last byte the disk takes.
        for (let piece = 64 * 1024; piece >= 1; piece = Math.floor(piece / 2)) {
          const chunk = Buffer.alloc(piece);
          try {
            while (writeSync(fd, chunk) === piece);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free(room) {
      truncateSync(filler, Math.max(0, statSync(filler).size - room));
    },
    empty() {
      rmSync(filler, { force: true });
    },
    destroy() {
      if (mounted) {
        mounted = false;
        try {
          run('umount', [dir]);
        } catch {
          // Still held open (a failed test's database): detach it now, freed once it is closed.
          run('umount', ['-l', dir]);
        }
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * Why a small filesystem cannot be mounted here, or undefined when it can (mounted and unmounted
 * once to find out). Under `CI=true` a reason is an error instead: the tests must run there.
 */
export function smallFilesystemUnavailable(): string | undefined {
  try {
    mountSmallFilesystem().destroy();
    return undefined;
  } catch (error) {
    const reason = `${(error as Error).message}: the full-disk tests need root, allowed to mount`;
    if (process.env.CI === 'true') throw new Error(`${reason}; with CI=true they fail.`, { cause: error });
    const skipped = `${reason}, so they are skipped (with CI=true they fail).`;
    console.warn(skipped);
    return skipped;
  }
}

function firstLine(error: unknown): string {
  const { stderr, message } = error as { stderr?: Buffer; message?: string };
  return (stderr?.toString().trim() || message || String(error)).split('\n')[0]!;
}
