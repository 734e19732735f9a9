/**
 * An earlier commit of this repository, checked out in a temp folder as a git worktree and
 * built there with its own `tsc`, so a bench can run that commit's daemons (its dist/) beside
 * this checkout's in the same run. The worktree uses this checkout's node_modules: the same
 * dependencies, so what differs between the two is the code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout's root: the repository whose history holds the baseline. */
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

export interface BaselineBuild {
  /** The worktree's folder: its dist/ and bin/loyaltyd are the baseline's. */
  root: string;
  /** The commit the ref names, abbreviated. */
  commit: string;
  /** Removes the worktree and its folder. */
  remove(): void;
}

/** The baseline built from `ref`, or why it could not be (no git, no such commit, a failed build). */
export function buildBaseline(ref: string): BaselineBuild | { skipped: string } {
  let commit: string;
  try {
    commit = git(['rev-parse', '--short', '--verify', `${ref}^{commit}`]);
  } catch (error) {
    return { skipped: `${ref} is not a commit of ${CHECKOUT} (${firstLine(error)})` };
  }
  const root = mkdtempSync(join(tmpdir(), `loyaltyd-bench-base-${commit}-`));
  try {
    git(['worktree', 'add', '--detach', root, commit]);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    return { skipped: `git worktree add failed (${firstLine(error)})` };
  }
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      git(['worktree', 'remove', '--force', root]);
    } catch {
      // A worktree git no longer knows: its folder goes, and git forgets the entry.
      rmSync(root, { recursive: true, force: true });
      git(['worktree', 'prune']);
    }
  };
  // A bench that fails before its own removal still leaves no worktree behind.
  process.once('exit', remove);
  try {
    symlinkSync(join(CHECKOUT, 'node_modules'), join(root, 'node_modules'), 'dir');
    execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) throw new Error('no dist/cli/main.js after the build');
  } catch (error) {
    remove();
    return { skipped: `building ${commit} failed (${firstLine(error)})` };
  }
  return { root, commit, remove };
}

/** The commit this checkout stands on, abbreviated, and whether its src/ differs from it; undefined without git. */
export function checkoutCommit(): string | undefined {
  try {
    const commit = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--', 'src']) === '' ? commit : `${commit} + uncommitted src/`;
  } catch {
    return undefined;
  }
}

function git(args: string[]): string {
  return execFileSync('git', ['-C', CHECKOUT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function firstLine(error: unknown): string {
  // tsc reports its errors on stdout, git on stderr.
  const failed = error as { stdout?: Buffer | string; stderr?: Buffer | string; message?: string };
  const text = failed.stderr?.toString().trim() || failed.stdout?.toString().trim() || failed.message || String(error);
  return text.split('\n')[0]!;
}
