export interface MissingPackage {
  what: string;
  packages: string[];
}
export interface PrerequisiteSystem {
  chromiumPath: string;
  env: Record<string, string | undefined>;
  exists(path: string): boolean;
  findPostgresBin(): string | null;
  /** libfaketime's preload library, or null. */
  findFaketimeLibrary(): string | null;
  isRoot(): boolean;
  hasApt(): boolean;
  /** True when `name --version` runs (a command on PATH). */
  hasCommand(name: string): boolean;
  log(line: string): void;
  /** Runs a command; null when it succeeded, else what failed. */
  run(cmd: string, args: string[]): string | null;
  nodeVersion?: string;
}
export const CHROMIUM_PATH: string;
export function findFaketimeLibrary(): string | null;
export function nodeSupported(version: string): boolean;
export function missingPackages(needs: Set<string>, sys: PrerequisiteSystem): MissingPackage[];
export function installPlan(
  missing: MissingPackage[],
  how: { isRoot: boolean; hasApt: boolean },
): { commands: [string, string[]][]; problems: string[] };
export function checkPrerequisites(needs: Set<string>, sys?: PrerequisiteSystem): string[];
