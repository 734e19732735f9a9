/** Temp folders a test file makes as it goes and removes once its tests are done with them. */
import { rmSync } from 'node:fs';
import { tempDir } from './server.js';

export function tempFolders(prefix: string): { newFolder(): string; removeFolders(): void } {
  const folders: string[] = [];
  return {
    newFolder() {
      const folder = tempDir(prefix);
      folders.push(folder);
      return folder;
    },
    /** Removes every folder made so far; call it after closing what was open in them. */
    removeFolders() {
      for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    },
  };
}
