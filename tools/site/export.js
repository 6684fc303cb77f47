// A lesson exported to static HTML (`jupyter nbconvert --to html`, docs/site.md "Exported to HTML"):
// its saved widgets drawn by reader.js, with no kernel and nothing fetched.
//
// The lesson's last cell (hidden; written by tools/run_lessons.py) saved one inline module script:
// reader.js, this file, then a call drawExport(document, renderWidget, data).  The script is written
// into one module (no import: a file opened from disk has nothing to import from), so the names here
// must not clash with reader.js's.
//
//   data: {cell: the export cell's id (its own cell is hidden),
//          css: reader.css (added as a style element),
//          needsPython: [view ids whose widgets have controls that need a kernel: computed in Python,
//                        tools/build_site.py needs_python, never decided here],
//          texts: {needsPython: a disabled control's title, note: the sentence under such a widget}}
//
// nbconvert leaves, where a widget was shown, a <script type="application/vnd.jupyter.widget-view+json">
// naming its model, and the whole saved state in one <script type="application/vnd.jupyter.widget-state+json">:
// both are read as data.  Each view tag is replaced by the widget drawn from the saved state, so that
// nbconvert's own widget manager (loaded from a CDN, when one is reachable) finds nothing to draw twice.
// A board's module is the saved state's `_esm` source, imported from a blob: URL (reader.js).

const EXPORT_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';
const EXPORT_STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';

/** The saved widget state of the page, {model_id: saved model}; {} if there is none or it is broken. */
export function exportStates(doc) {
  const tag = doc.querySelector(EXPORT_STATE);
  try {
    const saved = tag ? JSON.parse(tag.textContent || "{}") : {};
    return (saved && saved.state) || {};
  } catch (error) {
    console.error(error);
    return {};
  }
}

/** The model id a view tag names, or null. */
function exportViewId(tag) {
  try {
    const view = JSON.parse(tag.textContent || "{}");
    return typeof view.model_id === "string" ? view.model_id : null;
  } catch (error) {
    return null;
  }
}

/** Draw every saved widget of an exported lesson; returns reader.js's handles, one per widget drawn. */
export function drawExport(doc, render, data) {
  // only in nbconvert's page: a trusted notebook in JupyterLab may run this output's script too, and
  // there, with no saved state in the page, it leaves everything as it is
  if (!doc.querySelector(EXPORT_STATE)) return [];
  const own = data.cell ? doc.getElementById(`cell-id=${data.cell}`) : null;
  if (own) own.hidden = true; // the export cell itself shows nothing (its code is a comment)
  if (data.css) {
    const style = doc.createElement("style");
    style.textContent = data.css;
    doc.head.append(style);
  }
  const texts = data.texts || {};
  if (texts.needsPython) doc.documentElement.dataset.blNeedsPython = texts.needsPython;
  const needsPython = new Set(data.needsPython || []);
  const states = exportStates(doc);
  const handles = [];
  for (const tag of [...doc.querySelectorAll(EXPORT_VIEW)]) {
    const id = exportViewId(tag);
    if (!id || !states[id]) continue; // not ours to draw: left as nbconvert wrote it
    const el = doc.createElement("div");
    el.className = "bl-out bl-widget";
    el.dataset.modelId = id;
    tag.replaceWith(el);
    handles.push(render(el, states, id, null));
    if (needsPython.has(id)) {
      // the game, the gym, the explorer: drawn as saved, and nothing in them takes a tap (reader.js
      // disables their controls; their board's taps would only say that no kernel answers)
      el.inert = true;
      el.dataset.needsPython = "true";
      if (!texts.note) continue;
      const note = doc.createElement("p");
      note.className = "bl-needs-python";
      note.textContent = texts.note;
      el.after(note);
    }
  }
  return handles;
}
