// keys.js (StepKeys, the invisible j/k component of a puzzle without a board): j and k send a step
// while a proof is shown, only from inside its puzzle and never from a text field; the cleanup
// removes its listener.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fakeModel, installDom } from "./fake_dom.mjs";
import { loadModule } from "./load.mjs";

const keys = await loadModule("keys.js");

test("j and k step the proof of the puzzle the component sits in", () => {
  const page = installDom();
  const puzzle = page.document.createElement("div");
  puzzle.className = "bl-puzzle";
  const el = page.document.createElement("div");
  const button = page.document.createElement("button");
  const field = page.document.createElement("textarea");
  const outside = page.document.createElement("button");
  puzzle.append(el, button, field);
  page.document.body.append(puzzle, outside);
  const model = fakeModel(null);
  model.get = (name) => (name === "active" ? model.active : undefined);
  model.active = false;
  const cleanup = keys.default.render({ model, el });
  assert.equal(el.getAttribute("aria-hidden"), "true");
  const press = (t, key, extra = {}) => t.dispatchEvent({ type: "keydown", key, bubbles: true, ...extra });
  press(button, "j"); // no proof shown
  model.active = true;
  press(button, "j");
  press(button, "k");
  press(field, "j");
  press(outside, "j");
  press(button, "k", { metaKey: true });
  press(button, "x");
  assert.deepEqual(model.sent.map((m) => m.intent), [{ step: 1 }, { step: -1 }]);
  cleanup();
  assert.equal(page.window.listenerCount(), 0);
  press(button, "j");
  assert.equal(model.sent.length, 2);
});
