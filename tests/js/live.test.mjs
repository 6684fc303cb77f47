// The page side of tools/site/live.js that decides without a browser: which saved widgets need
// Python, which live root draws each of them, and the cells it runs (the lessons in notebooks/).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { codeCells, needsPython, pairRoots, pythonKind, startLive } from "../../tools/site/live.js";

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
