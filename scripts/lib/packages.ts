/**
 * The packages this repository publishes, in one place: the release script packs and publishes them, the tests
 * install them. Nothing else names their folders.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.ts';

/** The scope the code imports the packages under (`@service-api/client`); a team may publish them under its own. */
export const HOME_SCOPE = '@service-api';

/**
 * Each package's short name (`client` is `@service-api/client`) and its folder, relative to the repository root.
 * Dependencies come before the packages that use them, so a registry never holds a package whose dependency is missing.
 */
export const PACKAGES = [
  { name: 'openapi', folder: 'packages/openapi' },
  { name: 'types', folder: 'packages/types' },
  { name: 'validators', folder: 'packages/validators' },
  { name: 'server', folder: 'packages/server' },
  { name: 'client', folder: 'packages/client' },
  { name: 'fake', folder: 'packages/fake' },
  { name: 'mock', folder: 'packages/mock' },
  { name: 'proxy', folder: 'packages/proxy' },
  { name: 'mcp', folder: 'packages/mcp' },
] as const;

export type PackageName = (typeof PACKAGES)[number]['name'];

export const PACKAGE_FOLDERS: string[] = PACKAGES.map((p) => p.folder);

/** What the release script reads from a package's package.json. */
export interface PackageManifest {
  name: string;
  version: string;
  /** The contract version (`info.version`) the package is built from. */
  contractVersion?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The package.json of the package `name`, as it is in the repository. */
export function readManifest(name: PackageName): PackageManifest {
  const folder = PACKAGES.find((p) => p.name === name)!.folder;
  return JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as PackageManifest;
}
