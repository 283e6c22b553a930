import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import presetMantineModule from 'postcss-preset-mantine';
import type { AcceptedPlugin } from 'postcss';
import { chunkGroups } from './chunks';
import { precompress } from './precompress';

// The package ships an untyped module declaration.
const presetMantine = presetMantineModule as () => AcceptedPlugin;
const chunks = chunkGroups();

export default defineConfig({
  plugins: [react(), chunks.plugin, precompress()],
  css: {
    // PostCSS for Mantine (rem/em functions, light-dark, breakpoint mixins).
    postcss: { plugins: [presetMantine()] },
  },
  resolve: {
    // mantine-datatable resolves its own @mantine/core copy from the workspace root;
    // keep one copy, or it would not see the MantineProvider context.
    dedupe: ['react', 'react-dom', '@mantine/core', '@mantine/hooks'],
  },
  server: {
    proxy: {
      '/api': {
        target: 'http://localhost:3000',
        ws: true,
        // The server opens signed-in websockets only for its own origin (PUBLIC_URL): the dev page is on another port.
        configure: (proxy) => proxy.on('proxyReqWs', (proxyReq) => proxyReq.setHeader('origin', 'http://localhost:3000')),
      },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // What is built is served: no source maps in it.
    sourcemap: false,
    // dist/.vite/manifest.json: each entry and lazy route module with its chunk, static imports and CSS
    // (read by scripts/web-budgets.ts).
    manifest: true,
    // A page loads a few files of related code, not dozens of fragments (apps/web/chunks.ts).
    rolldownOptions: { output: { codeSplitting: { groups: chunks.groups } } },
  },
});
