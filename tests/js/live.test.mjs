// The page side of tools/site/live.js that decides without a browser: which saved widgets need
// Python, which live root draws each of them, and the cells it runs (the lessons in notebooks/).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import {
  codeCells,
  connect,
  launch,
  launchPage,
  needsPython,
  pairRoots,
  pythonKind,
  startLive,
  withData,
  DATA_LOCK,
} from "../../tools/site/live.js";

const NOTEBOOKS = new URL("../../notebooks/", import.meta.url);
const STATE = "application/vnd.jupyter.widget-state+json";
const VIEW = "application/vnd.jupyter.widget-view+json";

function lesson(name) {
  const book = JSON.parse(readFileSync(new URL(name, NOTEBOOKS), "utf8"));
  const states = (book.metadata.widgets || {})[STATE]?.state || {};
  const roots = book.cells.flatMap((cell) =>
    (cell.outputs || []).map((o) => (o.data || {})[VIEW]?.model_id).filter(Boolean),
  );
  return { book, states, places: roots.map((rootId) => ({ el: { rootId }, rootId })) };
}

const lessons = readdirSync(NOTEBOOKS).filter((name) => /^\d\d-.*\.ipynb$/.test(name));

const expected = {
  "01-cards-and-formations.ipynb": ["bl-explorer"],
  "02-comparing-and-the-tie-rule.ipynb": [null],
  "03-claim-proofs.ipynb": [null],
  "05-puzzle-gym.ipynb": ["bl-gym"],
  "06-play-a-game.ipynb": ["bl-game"],
  "08-three-at-the-table.ipynb": ["bl-game"],
};

for (const name of lessons) {
  test(`live: the widgets of ${name} that need Python`, () => {
    const { states, places } = lesson(name);
    assert.deepEqual(
      places.map((p) => pythonKind(states, p.rootId)),
      expected[name] || [],
    );
  });
}

test("live: a lesson whose widgets all answer from their saved state never starts a worker", () => {
  for (const name of ["02-comparing-and-the-tie-rule.ipynb", "03-claim-proofs.ipynb", "00-the-game-in-ten-minutes.ipynb"]) {
    const { states, places } = lesson(name);
    const worker = () => assert.fail(`${name} started a worker`);
    assert.equal(startLive({ places, states, renderWidget: () => null, notebook: name, worker }), null);
  }
});

test("live: each place that needs Python gets the next live root of its kind, puzzles keep theirs", () => {
  const saved = {
    p1: { state: { _dom_classes: ["bl-puzzle"] } },
    g1: { state: { _dom_classes: ["bl-game", "x"] } },
    e1: { state: { _dom_classes: ["bl-explorer"] } },
    g2: { state: { _dom_classes: ["bl-game"] } },
  };
  const live = {
    P: { state: { _dom_classes: ["bl-puzzle"] } },
    G: { state: { _dom_classes: ["bl-game"] } },
    E: { state: { _dom_classes: ["bl-explorer"] } },
    H: { state: { _dom_classes: ["bl-game"] } },
  };
  const places = ["p1", "g1", "e1", "g2"].map((rootId) => ({ el: rootId, rootId }));
  const cells = [{ roots: ["P"] }, { roots: [] }, { roots: ["G", "E"] }, { roots: ["H"] }];
  assert.deepEqual(
    pairRoots(places, saved, cells, live).map((p) => [p.rootId, p.liveId]),
    [["g1", "G"], ["e1", "E"], ["g2", "H"]],
  );
  // a live run that stopped early (a cell failed) pairs what it has, nothing twice
  assert.deepEqual(
    pairRoots(places, saved, cells.slice(0, 3), live).map((p) => p.liveId),
    ["G", "E"],
  );
  assert.equal(needsPython(saved, "p1"), false);
  assert.equal(needsPython(saved, "missing"), false);
});

test("live: the code cells run are the notebook's, in order, sources joined", () => {
  const book = {
    cells: [
      { cell_type: "markdown", source: ["# title"] },
      { cell_type: "code", source: ["a = 1\n", "a"] },
      { cell_type: "code", source: "b = 2" },
    ],
  };
  assert.deepEqual(codeCells(book), ["a = 1\na", "b = 2"]);
  const { book: six } = lesson("06-play-a-game.ipynb");
  assert.equal(codeCells(six).length, six.cells.filter((c) => c.cell_type === "code").length);
});

// -- the worker, started before the page draws its saved widgets ---------------------------------

/** A Worker as live.js uses one: what was posted, and replies delivered as the real one's. */
class FakeWorker {
  constructor(url, options) {
    this.url = String(url);
    this.options = options;
    this.posted = [];
    FakeWorker.made.push(this);
  }
  postMessage(message) {
    this.posted.push(message);
  }
  reply(data) {
    this.onmessage({ data });
  }
}
FakeWorker.made = [];

/** A page element as startLive touches it: its status line before it, its data, its controls. */
function fakePlace(rootId) {
  const el = {
    rootId,
    dataset: {},
    parentElement: null,
    previousElementSibling: null,
    before(line) {
      this.previousElementSibling = line;
    },
    querySelectorAll: () => [],
    contains: () => false,
  };
  return { el, rootId };
}

/** A reading page: the globals live.js reads (its saved state, its notebook, its places, Worker). */
function fakePage({ states, notebook, rootIds }) {
  FakeWorker.made = [];
  const places = rootIds.map((id) => Object.assign(fakePlace(id).el, { dataset: { modelId: id } }));
  const nodes = {
    "bl-widget-state": { textContent: JSON.stringify({ state: states }) },
    "bl-live-texts": { textContent: JSON.stringify({ "live.starting": "starting…", "live.ready": "ready" }) },
  };
  globalThis.Worker = FakeWorker;
  globalThis.window = {};
  globalThis.document = {
    baseURI: "http://site.test/read/06-play-a-game.html",
    documentElement: { dataset: notebook ? { blNotebook: notebook } : {} },
    getElementById: (id) => nodes[id] || null,
    querySelectorAll: () => places,
    addEventListener() {},
    removeEventListener() {},
    createElement: () => {
      const line = { attributes: {}, setAttribute: (k, v) => (line.attributes[k] = v), dataset: {} };
      line.classList = { contains: (name) => String(line.className || "").split(" ").includes(name) };
      return line;
    },
  };
  return places;
}

test("live: a call gets the reply of its own id, an error rejects it, a stopped worker rejects what waits", async () => {
  const worker = new FakeWorker();
  const call = connect(worker);
  const first = call({ cmd: "start" });
  const second = call({ cmd: "receive", message: { type: "click" } });
  assert.deepEqual(
    worker.posted.map((m) => [m.id, m.cmd]),
    [[1, "start"], [2, "receive"]],
  );
  worker.reply({ id: 2, ok: true, result: "two" }); // out of order: each gets its own
  worker.reply({ id: 99, ok: true, result: "nobody's" }); // an id nobody waits for changes nothing
  worker.reply({ id: 1, ok: false, error: "Python could not start" });
  assert.equal(await second, "two");
  await assert.rejects(first, /Python could not start/);
  const third = call({ cmd: "receive" });
  worker.onerror({ message: "the worker stopped here" });
  await assert.rejects(third, /the worker stopped here/);
});

test("live: launch starts one worker and asks it once to run the lesson, by the site's own addresses", () => {
  fakePage({ states: {}, notebook: "../files/06-play-a-game.ipynb", rootIds: [] });
  const launched = launch({ site: "../", notebook: "../files/06-play-a-game.ipynb", worker: () => new FakeWorker() });
  assert.equal(FakeWorker.made.length, 1);
  assert.deepEqual(launched.worker.posted, [
    { cmd: "start", site: "http://site.test/", notebook: "http://site.test/files/06-play-a-game.ipynb", id: 1 },
  ]);
  assert.equal(typeof launched.started, "number");
});

const LIVE_CASES = [
  { name: "03-claim-proofs.ipynb", workers: 0 },
  { name: "02-comparing-and-the-tie-rule.ipynb", workers: 0 },
  { name: "06-play-a-game.ipynb", workers: 1 },
  { name: "05-puzzle-gym.ipynb", workers: 1 },
];

for (const { name, workers } of LIVE_CASES) {
  test(`live: the page of ${name} starts ${workers} worker(s) before its widgets are drawn`, () => {
    const { states, places } = lesson(name);
    fakePage({ states, notebook: `../files/${name}`, rootIds: places.map((p) => p.rootId) });
    const launched = launchPage();
    assert.equal(FakeWorker.made.length, workers);
    assert.equal(launched === null, workers === 0);
    if (launched) {
      assert.equal(launched.worker.options.type, "module");
      assert.match(launched.worker.url, /\/live\.js$/); // this same file, as the worker's module
      assert.deepEqual(
        launched.worker.posted.map((m) => [m.cmd, m.notebook]),
        [["start", `http://site.test/files/${name}`]],
      );
    }
  });
}

test("live: startLive draws from the worker launched before it, and starts no other", async () => {
  const saved = { g1: { state: { _dom_classes: ["bl-game"] } } };
  const live = { G: { model_name: "VBoxModel", state: { _dom_classes: ["bl-game"] } } };
  fakePage({ states: saved, notebook: "../files/06-play-a-game.ipynb", rootIds: [] });
  const launched = launch({ site: "../", notebook: "../files/06-play-a-game.ipynb", worker: () => new FakeWorker() });
  const place = fakePlace("g1");
  const drawn = [];
  const renderWidget = (el, state, rootId, backend) => {
    drawn.push([el.rootId, rootId, Object.keys(state), typeof backend.send]);
    return { update() {}, add() {} };
  };
  const noWorker = () => assert.fail("a second worker was started");
  const running = startLive({
    places: [place], states: saved, renderWidget, notebook: "x", texts: {}, worker: noWorker, launched,
  });
  assert.equal(place.el.dataset.live, "starting"); // says so before Python answers
  launched.worker.reply({ id: 1, ok: true, result: { cells: [{ roots: ["G"] }], state: live, error: null, custom: [] } });
  const ready = await running;
  assert.deepEqual(drawn, [["g1", "G", ["G"], "function"]]);
  assert.equal(place.el.dataset.live, "ready");
  assert.equal(ready.worker, launched.worker);
  assert.equal(FakeWorker.made.length, 1);
});

test("live: withData runs each piece of work holding the data lock, one at a time, and its result comes back", async () => {
  // a lock manager as the Web Locks API has it: request(name, callback) runs callbacks of one name in turn
  const asked = [];
  let tail = Promise.resolve();
  const locks = {
    request(name, work) {
      asked.push(name);
      const run = tail.then(() => work());
      tail = run.catch(() => {});
      return run;
    },
  };
  const events = [];
  const slow = (label, ms) => async () => {
    events.push(`${label} reads`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    events.push(`${label} writes`);
    return label;
  };
  const results = await Promise.all([withData(slow("a", 20), locks), withData(slow("b", 1), locks)]);
  assert.deepEqual(results, ["a", "b"]);
  assert.deepEqual(asked, [DATA_LOCK, DATA_LOCK]);
  assert.deepEqual(events, ["a reads", "a writes", "b reads", "b writes"]); // b waited for a's write
  // without Web Locks (an insecure page, an old browser) the work still runs, at once
  assert.equal(await withData(async () => 7, undefined), 7);
});
