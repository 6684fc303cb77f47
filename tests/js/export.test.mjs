// tools/site/export.js, the drawing of a lesson exported with `jupyter nbconvert --to html` (docs/site.md
// "Exported to HTML"): in a fake page laid out as nbconvert's, with reader.js's renderWidget stubbed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { installDom } from "./fake_dom.mjs";
import { drawExport, exportStates } from "../../tools/site/export.js";

const VIEW = "application/vnd.jupyter.widget-view+json";
const STATE = "application/vnd.jupyter.widget-state+json";

/** nbconvert's page: an output per view id (its view tag), the export cell, then the saved state (or none). */
function page(viewIds, states) {
  const { document } = installDom("file:///tmp/03-claim-proofs.html");
  document.head = document.createElement("head");
  document.documentElement = document.createElement("html");
  document.querySelectorAll = (selector) => document.body.querySelectorAll(selector);
  document.getElementById = (id) => document.body.querySelectorAll("div").find((el) => el.id === id) || null;
  for (const id of viewIds) {
    const output = document.createElement("div");
    output.className = "jp-OutputArea-output";
    const tag = document.createElement("script");
    tag.setAttribute("type", VIEW);
    tag.textContent = JSON.stringify({ model_id: id, version_major: 2, version_minor: 0 });
    output.append(tag);
    document.body.append(output);
  }
  const cell = document.createElement("div");
  cell.setAttribute("id", "cell-id=bl-html-export");
  document.body.append(cell);
  if (states) {
    const saved = document.createElement("script");
    saved.setAttribute("type", STATE);
    saved.textContent = JSON.stringify({ state: states, version_major: 2, version_minor: 0 });
    document.body.append(saved);
  }
  return { document, cell };
}

const DATA = {
  cell: "bl-html-export",
  css: ".bl-widget { display: block; }",
  needsPython: ["game"],
  texts: { needsPython: "This needs Python.", note: "The buttons of this widget need Python." },
};
const STATES = { puzzle: { model_name: "VBoxModel", state: {} }, game: { model_name: "VBoxModel", state: {} } };

function recorder() {
  const calls = [];
  const render = (el, states, rootId, backend) => {
    calls.push({ el, rootId, backend, states });
    return { rootId };
  };
  return { calls, render };
}

test("each saved view is drawn in place of its tag, with no backend; a view needing Python is inert with its note", () => {
  const { document, cell } = page(["puzzle", "game", "unknown"], STATES);
  const { calls, render } = recorder();
  const handles = drawExport(document, render, DATA);
  assert.deepEqual(handles.map((h) => h.rootId), ["puzzle", "game"]);
  assert.deepEqual(calls.map((c) => [c.rootId, c.backend]), [["puzzle", null], ["game", null]]);
  assert.equal(calls[0].states, calls[1].states); // one saved state, read once, for every widget
  const places = document.body.querySelectorAll(".bl-widget");
  assert.deepEqual(places.map((el) => el.dataset.modelId), ["puzzle", "game"]);
  assert.deepEqual(calls.map((c) => c.el), places);
  // the drawn views' tags are gone (nbconvert's own manager would draw them again); an unknown one stays
  const left = document.body.querySelectorAll(`script[type="${VIEW}"]`);
  assert.deepEqual(left.map((tag) => JSON.parse(tag.textContent).model_id), ["unknown"]);
  assert.equal(places[0].inert, undefined);
  assert.equal(places[1].inert, true);
  assert.equal(places[1].dataset.needsPython, "true");
  const note = places[1].parentNode.childNodes[places[1].parentNode.childNodes.indexOf(places[1]) + 1];
  assert.equal(note.className, "bl-needs-python");
  assert.equal(note.textContent, "The buttons of this widget need Python.");
  assert.equal(document.body.querySelectorAll(".bl-needs-python").length, 1);
  assert.equal(document.documentElement.dataset.blNeedsPython, "This needs Python."); // a disabled control's title
  assert.equal(cell.hidden, true);
  assert.deepEqual(document.head.children.map((n) => [n.nodeName, n.textContent]), [["STYLE", DATA.css]]);
});

test("a page without nbconvert's saved state (a trusted notebook in JupyterLab) is left as it is", () => {
  const { document, cell } = page(["puzzle"], null);
  const { calls, render } = recorder();
  assert.deepEqual(drawExport(document, render, DATA), []);
  assert.equal(calls.length, 0);
  assert.equal(cell.hidden, undefined);
  assert.equal(document.head.children.length, 0);
  assert.equal(document.body.querySelectorAll(`script[type="${VIEW}"]`).length, 1);
});

test("a broken saved state draws nothing and throws nothing", () => {
  const { document } = page(["puzzle"], STATES);
  document.body.querySelector(`script[type="${STATE}"]`).textContent = "{not json";
  const errors = [];
  const quiet = console.error;
  console.error = (error) => errors.push(error);
  try {
    assert.deepEqual(exportStates(document), {});
    const { calls, render } = recorder();
    assert.deepEqual(drawExport(document, render, DATA), []);
    assert.equal(calls.length, 0);
  } finally {
    console.error = quiet;
  }
  assert.equal(errors.length, 2);
});
