/**
 * Lists the router files of an app directory, as paths relative to it with `/` separators.
 * The only place that reads the app directory from disk; the route tree itself never does.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { classifyFile } from '../../shared/route-tree.js';

export function scanAppDir(appDir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(appDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !classifyFile(entry.name)) continue;
    files.push(relative(appDir, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
  return files.sort();
}
