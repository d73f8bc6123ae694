/**
 * The API reference page (`/reference`): the board's OpenAPI document
 * (`api/openapi.json`) in plain reading form. The page itself is this
 * shell; what draws the document (`render.ts`) loads with `import()` when
 * the page opens, so the first paint carries none of it.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import type { OpenApiDocument } from "./types.ts";

/** The reference page. */
export function ReferencePage() {
  const { api } = useBoard();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ error: Error | null; loading: boolean }>({
    error: null,
    loading: true,
  });
  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      api.get("/openapi.json", { signal: controller.signal }),
      import("./render.ts"),
    ]).then(([document, { renderReference }]) => {
      if (controller.signal.aborted || !container.current) return;
      container.current.replaceChildren(renderReference(
        // The route's schema says only "an object"; that it is OpenAPI 3.1 is tests/http/openapi_test.ts.
        document as unknown as OpenApiDocument,
      ));
      setState({ error: null, loading: false });
    }, (error) => controller.signal.aborted || setState({ error, loading: false }));
    return () => controller.abort();
  }, []);
  return html`
    <${ErrorBanner} error=${state.error} />
    ${state.loading && html`<p class="muted">Loading the API reference…</p>`}
    <div class="ref" ref=${container}></div>
  `;
}
