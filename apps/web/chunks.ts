import type { Plugin } from 'vite';

/**
 * How the production build groups modules into files (Rolldown's `output.codeSplitting.groups`).
 *
 * Left to itself the bundler makes one chunk per distinct set of lazy routes that share a module: a page then loads
 * dozens of small files, each compressed on its own (the chat page: 107 files). These groups make a page load a few
 * files of related code instead, which compress far better, without giving any page code it does not use:
 *
 * - `vendor`: the npm packages the app's entry loads (React, React Router, TanStack Query, zod, Mantine's core) —
 *   every page needs them, and they change rarely, so they stay cached across deploys of app code;
 * - `app`: the app's own modules the entry loads (router, page registries, API client, providers);
 * - `public`: what the public pages (sign-in, its success page, the OAuth landing) use beyond those;
 * - `shell`: what the signed-in layout and the channel shell use — every channel page (the home and admin layouts'
 *   own code, which channel pages never need, stays in their own chunks).
 *
 * Page modules and what only they use stay in the bundler's own chunks, loaded with their route.
 * A group takes the modules a module it captured depends on (unless a group of higher priority took them first).
 */

/** Route modules whose direct imports form an area (see above). */
const areas = {
  public: /[\\/]app[\\/]routes[\\/](?:sign-in|sign-in-success|oauth)\.tsx$/,
  shell: /[\\/]app[\\/]routes[\\/](?:signed-in-layout|channels[\\/]channel-layout)\.tsx$/,
};
type Area = keyof typeof areas;

const nodeModules = /[\\/]node_modules[\\/]/;
const routeModule = /[\\/]app[\\/]routes[\\/]/;

/** The chunk groups, and the plugin that reads the module graph they are computed from (add both). */
export function chunkGroups() {
  // Filled from the module graph once it is complete (buildEnd), read when chunks are made (after it).
  const initialApp = new Set<string>();
  const members: Record<Area, Set<string>> = { public: new Set(), shell: new Set() };

  const plugin: Plugin = {
    name: 'greenroom-chunk-groups',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      // The app's own modules the entry imports statically (npm packages are tagged `$initial` by the bundler).
      const queue = ids.filter((id) => /[\\/]src[\\/]main\.tsx$/.test(id));
      while (queue.length > 0) {
        const id = queue.pop()!;
        if (initialApp.has(id) || nodeModules.test(id)) continue;
        initialApp.add(id);
        queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      for (const area of Object.keys(areas) as Area[]) {
        for (const id of ids) {
          if (!areas[area].test(id)) continue;
          for (const imported of this.getModuleInfo(id)?.importedIds ?? []) {
            if (!nodeModules.test(imported) && !routeModule.test(imported) && !initialApp.has(imported)) members[area].add(imported);
          }
        }
      }
    },
  };

  const groups = [
    { name: 'vendor', test: nodeModules, tags: ['$initial' as const], priority: 4 },
    { name: 'app', test: (id: string) => initialApp.has(id), priority: 3 },
    { name: 'public', test: (id: string) => members.public.has(id), priority: 2 },
    { name: 'shell', test: (id: string) => members.shell.has(id), priority: 1 },
  ];
  return { plugin, groups };
}
