// The site's live cells: the lesson cells that need Python (the game, the gym, the explorer, the
// editor) come alive on a reading page by themselves, with no JupyterLab and no Run All (docs/site.md).
//
// One file, two roles:
// - in the page, startLive() looks at the page's saved widgets; if one needs Python it marks its
//   controls "starting…" and starts this same file as a Web Worker; when the worker has run the
//   lesson's cells it draws those widgets again from their live models, with a backend for
//   reader.js's renderWidget: {send(modelId, content), set(modelId, patch)};
// - in the worker, it loads Pyodide and the wheels from the site itself (static/pyodide/: the
//   same files and lock the site's JupyterLite kernel uses; nothing from another host), runs the
//   lesson's code cells with battleline_lab.widgets.host.Host and answers each message from the
//   page with what changed (state patches, new models, the widgets' own custom messages, given to
//   renderWidget's handle.custom: the board's {"pong"} tells it Python is behind it).
//
// A lesson whose widgets all answer without Python (puzzles, from their response tables) never
// starts the worker.  The learner's progress (the gym's answers, the game's theme) is kept in the
// browser's IndexedDB (a folder mounted in Pyodide), read before and written after every message.
// Each tab's Pyodide holds a copy of that folder, and writing a copy back replaces the folder's files
// in IndexedDB, so one tab at a time reads the folder, runs Python and writes it back (a Web Lock): a
// second tab's answers are added to the first's, never written over them.

/** The root widgets' CSS classes that need Python: everything else answers from its saved state. */
export const PYTHON_WIDGETS = ["bl-game", "bl-gym", "bl-explorer", "bl-editor"];

/** The folder of the learner's data in the worker's Python (kept in IndexedDB). */
const DATA = "/home/pyodide/battleline-lab";
/** The Web Lock every tab's worker holds while it reads the folder, runs Python and writes it back. */
export const DATA_LOCK = "battleline-lab-data";

/**
 * Run `work` holding DATA_LOCK (in every tab of this site, one at a time), or at once where the
 * browser has no Web Locks.  Without it two tabs each wrote their own copy of the folder back, and
 * the last one replaced what the other had added (seen: an answer in one tab lost to an answer in
 * another).
 */
export function withData(work, locks = typeof navigator !== "undefined" ? navigator.locks : undefined) {
  return locks ? locks.request(DATA_LOCK, work) : work();
}

const IN_WORKER = typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope;

/** The first class of PYTHON_WIDGETS a saved root model carries, or null (it needs no Python). */
export function pythonKind(states, rootId) {
  const saved = states && states[rootId];
  const classes = (saved && saved.state && saved.state._dom_classes) || [];
  return PYTHON_WIDGETS.find((kind) => classes.includes(kind)) || null;
}

/** Does this saved widget need Python to answer? */
export function needsPython(states, rootId) {
  return pythonKind(states, rootId) !== null;
}

/**
 * Pair each of the page's places that needs Python with the live root that draws it: in page
 * order, the next live root of the same kind.  `places`: [{el, rootId}] (saved ids); `cells`: the
 * host's cells, each with its `roots` (live ids); `live`: the live models' state.
 */
export function pairRoots(places, savedStates, cells, live) {
  const roots = cells.flatMap((cell) => cell.roots || []);
  const pairs = [];
  let from = 0;
  for (const place of places) {
    const kind = pythonKind(savedStates, place.rootId);
    if (!kind) continue;
    const at = roots.findIndex((id, k) => k >= from && pythonKind(live, id) === kind);
    if (at < 0) continue;
    pairs.push({ ...place, liveId: roots[at] });
    from = at + 1;
  }
  return pairs;
}

/** The lesson's code cells' sources, in order, from a notebook (nbformat 4: source is a string or lines). */
export function codeCells(notebook) {
  return (notebook.cells || [])
    .filter((cell) => cell.cell_type === "code")
    .map((cell) => (Array.isArray(cell.source) ? cell.source.join("") : String(cell.source || "")));
}

// -- the page ------------------------------------------------------------------------------------

/** A catalogue text with its {reason}: the error's last line (a Python error's own sentence, no traceback). */
function fill(text, reason) {
  const lines = String(reason || "?").split("\n").map((line) => line.trim()).filter(Boolean);
  return String(text || "").replace("{reason}", lines.length ? lines[lines.length - 1] : "?");
}

function statusLine(el) {
  let line = el.previousElementSibling;
  if (!line || !line.classList.contains("bl-live-status")) {
    line = document.createElement("p");
    line.className = "bl-live-status";
    line.setAttribute("role", "status");
    el.before(line);
  }
  return line;
}

/** Say `text` on a Python cell: its status line, and the title of every control it has. */
function say(el, state, text) {
  el.dataset.live = state;
  const line = statusLine(el);
  line.dataset.live = state;
  line.textContent = text;
  if (state !== "ready") {
    for (const control of el.querySelectorAll("button, select, input, textarea")) control.title = text;
  }
}

/**
 * A worker's request/reply channel: `call(message)` posts `{...message, id}` and resolves with the
 * reply of the same id (`{id, ok, result}`), or rejects with its error; all pending calls reject if
 * the worker stops.
 */
export function connect(worker) {
  const waiting = new Map();
  let next = 0;
  worker.onmessage = (event) => {
    const { id, ok, result, error } = event.data || {};
    const pending = waiting.get(id);
    if (!pending) return;
    waiting.delete(id);
    if (ok) pending.resolve(result);
    else pending.reject(new Error(error));
  };
  worker.onerror = (event) => {
    for (const pending of waiting.values()) pending.reject(new Error(event.message || "the worker stopped"));
    waiting.clear();
  };
  return function call(message) {
    const id = ++next;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  };
}

/**
 * Start the worker and ask it to run the lesson's cells: `{worker, call, ran, started}`, `ran` the
 * promise of the cells' run.  The page calls this before it draws its saved widgets, so that
 * Pyodide boots while they are drawn.
 */
export function launch({ site, notebook, worker: makeWorker }) {
  const started = performance.now();
  const worker = makeWorker ? makeWorker() : new Worker(import.meta.url, { type: "module" });
  const call = connect(worker);
  const siteUrl = new URL(site || "../", document.baseURI).href;
  const notebookUrl = new URL(notebook, document.baseURI).href;
  const ran = call({ cmd: "start", site: siteUrl, notebook: notebookUrl });
  return { worker, call, ran, started };
}

/**
 * Bring the page's Python cells alive.  Options:
 *   places:       [{el, rootId}] the page's saved widgets, in page order
 *   states:       the saved widget state ({model_id: {...}})
 *   renderWidget: reader.js's renderWidget(el, states, rootId, backend)
 *   notebook:     the lesson's .ipynb URL (its code cells are run)
 *   texts:        the catalogue's live.* texts in the page's language
 *   site:         the site's root URL (static/pyodide/ under it)
 *   launched:     the worker already started by launch() (the page starts it before drawing its
 *                 saved widgets), else it is started here
 * Returns null (nothing needs Python: no worker is started), else a promise of
 * {handles, worker, send(msg) -> Promise(reply)} once the cells are live.
 */
export function startLive({ places, states, renderWidget, notebook, texts = {}, site, worker: makeWorker, launched }) {
  const python = places.filter((place) => needsPython(states, place.rootId));
  if (!python.length) return null;
  const starting = texts["live.starting"] || "starting…";
  for (const place of python) say(place.el, "starting", starting);
  // a tap on a control that cannot answer yet is told why, never swallowed in silence
  const why = (event) => {
    const place = python.find((p) => p.el.contains(event.target));
    if (place && place.el.dataset.live !== "ready") statusLine(place.el).textContent = texts["live.not_yet"] || starting;
  };
  document.addEventListener("pointerdown", why, true);

  const { worker, call, ran: running, started } = launched || launch({ site, notebook, worker: makeWorker });
  return running
    .then((ran) => shipModules(ran.state, states).then(() => ran))
    .then((ran) => {
      if (ran.error) console.warn("live cells:", ran.error);
      const handles = [];
      // one queue: a reply is applied before the next message is sent, so patches arrive in order
      let queue = Promise.resolve();
      const apply = (reply) => {
        if (reply.error) console.warn("live cells:", reply.error);
        for (const handle of handles) {
          if (reply.new && Object.keys(reply.new).length) handle.add(reply.new);
          for (const [modelId, patch] of Object.entries(reply.patches || {})) handle.update(modelId, patch);
          // the widgets' own messages to the page (Python's widget.send: the board's pong, a replay's receipt)
          for (const [modelId, content] of reply.custom || []) if (handle.custom) handle.custom(modelId, content);
        }
        return reply;
      };
      const send = (message) => {
        queue = queue.then(() => call({ cmd: "receive", message })).then(apply, (error) => {
          console.error("live cells:", error);
          return { error: String(error) };
        });
        return queue;
      };
      const backend = {
        send: (modelId, content) => send({ type: "custom", model_id: modelId, content }),
        set: (modelId, patch) => send({ type: "set", model_id: modelId, patch }),
      };
      for (const pair of pairRoots(python, states, ran.cells, ran.state)) {
        handles.push(renderWidget(pair.el, ran.state, pair.liveId, backend));
        pair.el.dataset.liveModelId = pair.liveId;
        say(pair.el, "ready", texts["live.ready"] || "ready");
        // the saved page's "open the notebook to use it" no longer holds: the cell answers here
        const note = pair.el.parentElement && pair.el.parentElement.querySelector(".bl-needs-python");
        if (note) note.hidden = true;
      }
      for (const place of python) {
        if (place.el.dataset.live !== "ready") say(place.el, "failed", fill(texts["live.failed"], ran.error || "?"));
      }
      document.removeEventListener("pointerdown", why, true);
      document.documentElement.dataset.liveSeconds = ((performance.now() - started) / 1000).toFixed(2);
      return { handles, worker, send, backend, ran };
    })
    .catch((error) => {
      console.error("live cells:", error);
      for (const place of python) say(place.el, "failed", fill(texts["live.failed"], error.message));
      document.removeEventListener("pointerdown", why, true);
      return null;
    });
}

/**
 * An AnyModel's module and stylesheet as the page ships them (`esm/<sha256 prefix>.js|.css`, see
 * tools/build_site.py's shipped_state) when the page holds that file: imported once, by the same
 * address as the saved board's, not a second copy from the source text.
 */
export async function shipModules(live, saved) {
  const shipped = new Set();
  for (const model of Object.values(saved || {})) {
    for (const key of ["_esm", "_css"]) if (typeof model.state?.[key] === "string") shipped.add(model.state[key]);
  }
  if (!shipped.size || !globalThis.crypto?.subtle) return live;
  for (const model of Object.values(live)) {
    if (model.model_name !== "AnyModel") continue;
    for (const [key, suffix] of [["_esm", ".js"], ["_css", ".css"]]) {
      const content = model.state[key];
      if (typeof content !== "string") continue;
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(content));
      const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      const name = `esm/${hex.slice(0, 16)}${suffix}`;
      if (shipped.has(name)) model.state[key] = name;
    }
  }
  return live;
}

/** The reading page's saved widget state, live texts, notebook and widget places. */
function readPage() {
  const data = document.getElementById("bl-widget-state");
  const states = (data ? JSON.parse(data.textContent || "{}") : {}).state || {};
  const textNode = document.getElementById("bl-live-texts");
  const texts = textNode ? JSON.parse(textNode.textContent || "{}") : {};
  const notebook = document.documentElement.dataset.blNotebook;
  const places = [...document.querySelectorAll(".bl-widget[data-model-id]")]
    .filter((el) => states[el.dataset.modelId])
    .map((el) => ({ el, rootId: el.dataset.modelId }));
  return { states, texts, notebook, places };
}

/**
 * The reading page's first step (reader-page.js), before its saved widgets are drawn: if one of
 * them needs Python, the worker starts now (launch), so Pyodide boots while the page draws.
 * Returns the launched worker, or null (nothing needs Python: nothing is started).
 */
export function launchPage() {
  const { states, notebook, places } = readPage();
  if (!notebook || !places.some((place) => needsPython(states, place.rootId))) return null;
  return launch({ site: "../", notebook });
}

/** The reading page's start (reader-page.js): its saved widgets, its notebook, its texts; `launched`
 * the worker launchPage() started. */
export function startPage(renderWidget, launched = null) {
  const { states, texts, notebook, places } = readPage();
  if (!notebook) return null;
  const started = startLive({ places, states, renderWidget, notebook, texts, site: "../", launched });
  window.blLive = started; // the browser tests and the benchmark wait on it
  return started;
}

// -- the worker ----------------------------------------------------------------------------------

/** The Python the worker runs before the lesson's host is imported (lazy_ipython's module doc). */
export const BEFORE_IMPORT = "from battleline_lab.widgets.lazy_ipython import defer_init\ndefer_init()";

async function boot({ site, notebook }) {
  const t0 = performance.now();
  const seconds = () => Number(((performance.now() - t0) / 1000).toFixed(2));
  const timings = {};
  const pyodideUrl = new URL("static/pyodide/", site).href;
  const { loadPyodide } = await import(`${pyodideUrl}pyodide.mjs`);
  timings.script = seconds();
  // the package and its dependencies (the lock's closure) are fetched while Pyodide boots, and
  // installed as soon as it is up: loadPyodide resolves once they are in
  const [pyodide, book] = await Promise.all([
    loadPyodide({
      indexURL: pyodideUrl,
      env: { BATTLELINE_LAB_DATA: DATA, HOME: "/home/pyodide" },
      packages: ["battleline-lab"],
    }),
    fetch(notebook).then((response) => {
      if (!response.ok) throw new Error(`${notebook}: ${response.status}`);
      return response.json();
    }),
  ]);
  timings.packages = seconds();
  // the learner's progress outlives the page: a folder in IndexedDB, read (pull) before and written
  // back (push) after each piece of Python that may change it, with the folder's lock held between
  const sync = (populate) =>
    new Promise((resolve) =>
      pyodide.FS.syncfs(populate, (error) => {
        if (error) console.warn("live cells: the progress folder could not be synced:", error);
        resolve();
      }),
    );
  let kept = false;
  try {
    pyodide.FS.mkdirTree(DATA);
    pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, DATA);
    kept = true;
  } catch (error) {
    console.warn("live cells: the progress is kept for this page only:", error);
  }
  /** Run `python` with the folder as every tab left it, and write back what it changed (also what
   * it wrote before an error: the next read would replace it). */
  const inData = (python) =>
    withData(async () => {
      if (kept) await sync(true);
      try {
        return python();
      } finally {
        if (kept) await sync(false);
      }
    });
  pyodide.runPython(BEFORE_IMPORT);
  const host = pyodide.pyimport("battleline_lab.widgets.host").Host();
  timings.imported = seconds();
  const ran = JSON.parse(await inData(() => host.run_json(JSON.stringify(codeCells(book)))));
  timings.cells = seconds();
  ran.timings = timings; // seconds since the worker started: what the page's wait is made of
  return { host, ran, inData };
}

if (IN_WORKER) {
  let booted = null;
  self.onmessage = async (event) => {
    const { id, cmd } = event.data || {};
    try {
      if (cmd === "start") {
        booted = boot(event.data);
        const { ran } = await booted;
        self.postMessage({ id, ok: true, result: ran });
      } else if (cmd === "receive") {
        if (!booted) throw new Error("the cells have not started");
        const { host, inData } = await booted;
        const reply = JSON.parse(await inData(() => host.receive_json(JSON.stringify(event.data.message))));
        self.postMessage({ id, ok: true, result: reply });
      } else {
        throw new Error(`unknown command ${cmd}`);
      }
    } catch (error) {
      self.postMessage({ id, ok: false, error: String((error && error.message) || error) });
    }
  };
}
