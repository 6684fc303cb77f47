// The tap state machine of board.js (tap, legalFlags) against the one table of cases
// tests/data/tap_cases.json, which Python's Taps is tested against too (tests/test_board_taps.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadBoard, tapCases } from "./load.mjs";

const board = await loadBoard();
const { views, cases } = tapCases();

for (const c of cases) {
  test(`tap: ${c.id}`, () => {
    const view = views[c.view];
    const before = structuredClone(c.before);
    const out = board.tap(view, before, c.hit);
    assert.deepEqual(out.state, c.after);
    assert.deepEqual(out.intent, c.intent);
    assert.equal(out.refused, c.refused);
    assert.deepEqual(before, c.before, "tap() changes nothing it is given");
    if (c.lit) assert.deepEqual(board.legalFlags(view, out.state), c.lit);
  });
}

test("tap: every kind of hit has a case", () => {
  const kinds = new Set(cases.map((c) => Object.keys(c.hit)[0]));
  assert.deepEqual([...kinds].sort(), ["button", "drag", "drop", "evidence", "flag", "hand", "key", "palette", "place", "take", "target"]);
});

test("tap: an unknown hit is refused", () => {
  const out = board.tap(views.game, { sel: "r7", pick: null }, { shake: 1 });
  assert.equal(out.refused, true);
  assert.equal(out.intent, null);
});
