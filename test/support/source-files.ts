/** The TypeScript files of a folder, for the checks that read the code itself. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` file below `folder`, as paths. */
export function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
