/**
 * Entry point of the browser bundle: reads the base path the server injected
 * and mounts the {@link App} into `#app`.
 *
 * @module
 */
import { render } from "preact";
import { App } from "./app.ts";
import { readBasePath } from "./lib/config.ts";
import { html } from "./lib/html.ts";

const root = document.getElementById("app");
if (root) render(html`<${App} basePath=${readBasePath()} />`, root);
