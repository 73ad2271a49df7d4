// What a render is asked to load (an HTML document with its assets, or a URL) and the lifecycle
// event it waits for: the input every page source and page driver shares.

import type { WAIT_UNTIL } from './pdf-options.ts';

/** Answers a relative name the document asks for on its own origin (a template's assets); undefined: 404. */
export type AssetResolver = (name: string) => Promise<{ contentType: string; body: Uint8Array } | undefined>;

/** The document a render loads. */
export type RenderSource =
  | {
      kind: 'html';
      html: string;
      /** Files the document may name by relative path, answered from memory: never the network, so the guard is not involved. */
      assets?: AssetResolver;
    }
  | {
      kind: 'url';
      url: string;
      /** Throws when the top-level document was redirected somewhere it must not go (the network guard's check). */
      checkRedirect?: (url: string) => Promise<void>;
    };

/** The lifecycle event a render waits for before printing (options.wait_until). */
export type WaitUntil = (typeof WAIT_UNTIL)[number];
