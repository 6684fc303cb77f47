// board.js drawn into a tiny fake DOM (fake_dom.mjs): what the learner's page gets, asserted on the
// elements (order, hooks, ARIA), the intents sent for taps and keys, that a redraw updates the page
// in place (the same elements, the focus kept) and that the cleanup removes every listener.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { fakeModel, installDom } from "./fake_dom.mjs";
import { loadBoard } from "./load.mjs";

const board = await loadBoard();
let page;

beforeEach(() => {
  page = installDom();
});

const card = (id, extra = {}) => ({ id, label: `card ${id}`, value: id.slice(1), name: id, fill: "#fff", ink: "#000", ...extra });
const flag = (n, extra = {}) => ({ n, label: `flag ${n}`, slots: 3, you: [], opponent: [], ...extra });
const XSS = '<img src=x onerror="alert(1)">';

function game(extra = {}) {
  return {
    mode: "game",
    rev: 1,
    prompt: "Your turn",
    board_label: "board",
    flags: [1, 2, 3, 4].map((n) => flag(n, n === 2 ? { claim: true, claimable: true } : {})),
    hand: [card("r7", { flags: [3, 4] }), card("b2", { flags: [1] }), card("g5")],
    hand_label: "Your hand",
    chosen_text: "{card}: to flag {flags}",
    decks: [{ deck: "troops", label: "Troops", enabled: true }],
    choices: [{ action: "pass", label: "Pass" }],
    selection: [],
    feedback: { tone: "info", text: "" },
    ...extra,
  };
}

function puzzle(extra = {}) {
  return {
    mode: "puzzle",
    rev: 1,
    board_label: "board",
    flags: [flag(1, { answer: false, css: "bl-flag-toggle" }), flag(2, { answer: true }), flag(3, { inert: true })],
    question: "Which flags can you claim?",
    answers: [{ action: "check", label: "Check", css: "bl-check" }, { value: "yes", label: "Yes", css: "bl-answer bl-answer-yes" }],
    answers_label: "answers",
    hint: { label: "Hint", enabled: true },
    hints: [],
    proof_label: "Proof",
    proof_waiting: "The proof appears here.",
    feedback: { tone: "info", state: "waiting", text: "Waiting" },
    ...extra,
  };
}

const PROOF = { steps: [[{ text: "Flag 5: " }, { text: "R12", href: "rules.md#R12", rule: "R12" }], [{ text: "two" }]], index: 0, counter: "step 1 of 2", rule_label: "rule {rule}" };

function mount(view) {
  const el = page.document.createElement("div");
  page.document.body.append(el);
  const model = fakeModel(view);
  const cleanup = board.default.render({ model, el });
  return { el, model, cleanup, root: el.querySelector(".blb") };
}

const click = (el) => el.dispatchEvent({ type: "click", bubbles: true });
const press = (el, key, extra = {}) => el.dispatchEvent({ type: "keydown", key, bubbles: true, ...extra });
// the intents sent (the board also sends {"ping": true} once, to learn whether a kernel is behind it)
const intents = (model) => model.sent.filter((m) => "intent" in m).map((m) => m.intent);
const order = (root, selectors) => selectors.map((s) => root.children.indexOf(root.querySelector(s)));

test("puzzle: the answers, then the proof panel, then the feedback: before the answer and after", () => {
  const { root, model } = mount(puzzle());
  const parts = [".blb-board-view", ".blb-question", ".blb-answers", ".blb-proof", ".blb-feedback", ".blb-hints"];
  const before = order(root, parts);
  assert.ok(before.every((i, k) => i >= 0 && (k === 0 || i > before[k - 1])), `order ${before}`);
  assert.equal(root.querySelector('[data-role="proof-step"]').getAttribute("data-waiting"), "true"); // its place is there already
  model.set(puzzle({ rev: 2, proof: PROOF, feedback: { tone: "right", state: "right", text: "Right" } }));
  assert.deepEqual(order(root, parts), before);
  assert.equal(root.querySelector('[data-role="proof-step"]').textContent, "Flag 5: R12");
});

test("puzzle: the feedback, the proof step and the hints are announced", () => {
  const { root } = mount(puzzle({ proof: PROOF }));
  const feedback = root.querySelector('[data-role="feedback"]');
  assert.equal(feedback.getAttribute("role"), "status");
  assert.equal(feedback.getAttribute("aria-live"), "polite");
  assert.equal(root.querySelector('[data-role="proof-step"]').getAttribute("aria-live"), "polite");
  assert.equal(root.querySelector(".blb-hint-list").getAttribute("aria-live"), "polite");
  assert.equal(root.querySelector(".blb-sr").getAttribute("aria-live"), "polite");
});

test("R12 puzzle: a rule id of a step is a link to the rules page in the same front end", () => {
  const { root } = mount(puzzle({ proof: PROOF }));
  const link = root.querySelector("a.blb-rule");
  assert.equal(link.getAttribute("href"), "http://localhost:8888/lab/tree/notebooks/rules.md#R12");
  assert.equal(link.getAttribute("aria-label"), "rule R12");
  assert.equal(link.getAttribute("target"), "_blank");
});

test("R12 puzzle: on the site (JupyterLite) a rule id links the site's rules page, in English or from zh/", () => {
  for (const [path, href] of [
    ["03-claim-proofs.ipynb", "rules.md#R12"],
    ["zh/03-claim-proofs.zh.ipynb", "../rules.md#R12"],
  ]) {
    for (const app of ["lab", "notebooks"]) {
      page = installDom(`http://localhost:8000/course/${app}/index.html?path=${encodeURIComponent(path)}`);
      const proof = { ...PROOF, steps: [[{ text: "R12", href, rule: "R12" }]] };
      const { root } = mount(puzzle({ proof }));
      assert.equal(root.querySelector("a.blb-rule").getAttribute("href"), "http://localhost:8000/course/rules.html#R12");
    }
  }
});

test("R12 which flags: the flags are answer toggles, tapped on the board", () => {
  const { root, model } = mount(puzzle());
  const one = root.querySelector('.blb-flag[data-flag="1"]');
  assert.equal(one.getAttribute("data-action"), "answer");
  assert.equal(one.getAttribute("aria-pressed"), "false");
  assert.ok(one.classList.contains("bl-flag-toggle"));
  assert.equal(root.querySelector('.blb-flag[data-flag="2"]').getAttribute("aria-pressed"), "true");
  assert.equal(root.querySelector('.blb-flag[data-flag="3"]').getAttribute("aria-disabled"), "true");
  click(one);
  click(root.querySelector('.blb-flag[data-flag="3"]'));
  click(root.querySelector('[data-action="check"]'));
  assert.deepEqual(intents(model), [{ answer: "1" }, { do: "check" }]);
});

test("R12 the keys j and k step a shown proof, never from a text field, and only inside this board", () => {
  const { root, model } = mount(puzzle({ proof: PROOF }));
  const other = mount(puzzle({ proof: PROOF }));
  const next = root.querySelector('[data-action="step-next"]');
  press(next, "j");
  press(next, "k");
  const field = page.document.createElement("input");
  root.append(field);
  press(field, "j");
  press(next, "j", { ctrlKey: true });
  assert.deepEqual(intents(model), [{ step: 1 }, { step: -1 }]);
  assert.deepEqual(intents(other.model), []);
  press(next, "ArrowRight"); // on the proof's buttons the arrows step too
  assert.deepEqual(intents(model).at(-1), { step: 1 });
});

function evidence(extra = {}) {
  return puzzle({
    flags: [
      flag(2, { you: [card("b7", { pick: true })], opponent: [card("b10", { pick: true })], inert: true }),
      flag(5, { you: [card("r3", { pick: true })], opponent: [card("b8")], inert: true }),
    ],
    held: [{ side: "you", label: "Your hand", cards: [card("y1", { pick: true })] }],
    answers: [{ value: "yes", label: "Yes", enabled: false, state: "right" }, { value: "no", label: "No", enabled: false }],
    evidence: { prompt: "Now prove it.", ghost: false, rows: [{ caption: "Your discards", cards: [card("p4", { pick: true })] }] },
    feedback: { tone: "info", state: "evidence", text: "Now prove it." },
    ...extra,
  });
}

test("R13 evidence: the cards on offer are buttons where they lie, tapped or keyed as evidence", () => {
  const { root, model } = mount(evidence());
  const picks = root.querySelectorAll('[data-action="evidence"]');
  assert.deepEqual(picks.map((b) => b.getAttribute("data-card")), ["b10", "b7", "r3", "y1", "p4"]);
  assert.ok(picks.every((b) => b.tagName === "BUTTON" && b.getAttribute("data-nav") === "evidence"));
  assert.equal(root.querySelector('[data-card="b8"]').tagName, "DIV"); // not on offer: not a button
  const section = root.querySelector('[data-role="evidence"]');
  assert.equal(section.querySelector(".blb-evidence-prompt").textContent, "Now prove it.");
  assert.ok(root.children.indexOf(section) > root.children.indexOf(root.querySelector(".blb-feedback"))); // nothing above moves
  click(root.querySelector('[data-card="b10"]'));
  press(root.querySelector('[data-card="y1"]'), "Enter");
  click(root.querySelector('[data-card="p4"]'));
  click(root.querySelector('[data-card="b8"]'));
  assert.deepEqual(intents(model), [{ evidence: "b10" }, { evidence: "y1" }, { evidence: "p4" }]);
});

test("R12 evidence: a ghost is picked from the palette of unseen troops", () => {
  const rows = [{ caption: "The unseen troops", cards: [card("b6", { pick: true }), card("b9", { pick: true })] }];
  const { root, model } = mount(evidence({ evidence: { prompt: "Which card?", ghost: true, rows } }));
  const palette = root.querySelector(".blb-evidence-ghost");
  assert.deepEqual(palette.querySelectorAll('[data-action="evidence"]').map((b) => b.getAttribute("data-card")), ["b6", "b9"]);
  click(palette.querySelector('[data-card="b9"]'));
  assert.deepEqual(intents(model), [{ evidence: "b9" }]);
});

function playPuzzle(extra = {}) {
  return puzzle({
    flags: [flag(1), flag(2, { inert: true }), flag(3), flag(4, { focus: true, you: [card("r5"), card("r6")] })],
    question: "Play the card that lets you claim flag 4 now.",
    answers: [],
    hand: [card("r7", { flags: [1, 3, 4] }), card("b1", { flags: [1, 3, 4] })],
    hand_label: "Your hand",
    chosen_text: "{card}: to flag {flags}",
    ...extra,
  });
}

test("R6 play puzzle: the hand is drawn under the board; tap a card, then a flag, to play it", () => {
  const { root, model } = mount(playPuzzle());
  const view = root.querySelector(".blb-board-view");
  const r7 = view.querySelector('button[data-zone="hand"][data-card="r7"]');
  assert.ok(r7, "the hand cards are buttons inside the board view");
  assert.equal(r7.getAttribute("draggable"), "true");
  assert.equal(root.querySelectorAll(".blb-answers button[data-value]").length, 0); // no answer buttons
  click(r7);
  assert.equal(r7.getAttribute("aria-pressed"), "true");
  const lit = root.querySelectorAll('.blb-flag[data-legal="true"]').map((f) => f.dataset.flag);
  assert.deepEqual(lit, ["1", "3", "4"]);
  assert.equal(root.querySelector(".blb-sr").textContent, "card r7: to flag 1, 3, 4");
  click(root.querySelector('.blb-flag[data-flag="2"]')); // inert: nothing is sent
  click(root.querySelector('.blb-flag[data-flag="4"]'));
  assert.deepEqual(intents(model), [{ play: ["r7", 4] }]);
});

test("R6 play puzzle: by keys, Enter on a hand card then Enter on a flag; Escape drops the card", () => {
  const { root, model } = mount(playPuzzle());
  const b1 = root.querySelector('[data-zone="hand"][data-card="b1"]');
  b1.focus();
  press(b1, "Enter");
  assert.equal(b1.getAttribute("aria-pressed"), "true");
  press(b1, "Escape");
  assert.equal(b1.getAttribute("aria-pressed"), "false");
  press(b1, "Enter");
  const three = root.querySelector('.blb-flag[data-flag="3"]');
  three.focus();
  press(three, "Enter");
  assert.deepEqual(intents(model), [{ play: ["b1", 3] }]);
});

function tacticPuzzle(extra = {}) {
  return playPuzzle({
    flags: [flag(1, { you: [card("r9")] }), flag(3, { focus: true, opponent: [card("g5"), card("g6")] })],
    question: "Play the card that stops the opponent from ever making a Wedge at flag 3.",
    hand: [card("deserter", { kernel: true }), card("r1", { flags: [1, 3] })],
    ...extra,
  });
}

test("R29 tactic puzzle: tap the Deserter, then their card, by taps and by keys, as in the game", () => {
  const { root, model } = mount(tacticPuzzle());
  assert.equal(root.querySelectorAll('[data-action="target"]').length, 0); // nothing held: no target yet
  click(root.querySelector('[data-zone="hand"][data-card="deserter"]'));
  assert.deepEqual(intents(model), [{ select: "deserter" }]);
  const held = mount(tacticPuzzle({ hand: [card("deserter", { kernel: true, chosen: true }), card("r1", { flags: [1, 3] })], targets: ["g5", "g6"] }));
  const targets = held.root.querySelectorAll('button[data-action="target"]');
  assert.deepEqual(targets.map((t) => t.dataset.card), ["g5", "g6"]);
  assert.ok(targets.every((t) => t.classList.contains("blb-target") && t.dataset.zone === "board"));
  const own = held.root.querySelector('[data-card="r9"]');
  assert.notEqual(own.getAttribute("data-action"), "target"); // your own card is no target (R29)
  click(targets[1]);
  targets[0].focus();
  press(targets[0], "Enter");
  assert.deepEqual(intents(held.model), [{ target: "g6" }, { target: "g5" }]);
});

test("R6 play puzzle: once solved the hand cards are aria-disabled and a tap sends nothing", () => {
  const { root, model } = mount(playPuzzle({ hand: [card("r7"), card("b1")], flags: [flag(4, { inert: true })] }));
  const r7 = root.querySelector('[data-zone="hand"][data-card="r7"]');
  assert.equal(r7.getAttribute("aria-disabled"), "true");
  click(r7);
  click(root.querySelector('.blb-flag[data-flag="4"]'));
  assert.deepEqual(intents(model), []);
});

test("game: a tapped card lights its flags at once, says so, and a tap on a lit flag plays it", () => {
  const { root, model } = mount(game());
  const r7 = root.querySelector('[data-zone="hand"][data-card="r7"]');
  click(r7);
  assert.equal(r7.getAttribute("aria-pressed"), "true");
  const lit = root.querySelectorAll('.blb-flag[data-legal="true"]').map((f) => f.dataset.flag);
  assert.deepEqual(lit, ["3", "4"]);
  assert.equal(root.querySelector(".blb-sr").textContent, "card r7: to flag 3, 4");
  assert.equal(root.querySelector(".blb-prompt").textContent, "card r7: to flag 3, 4");
  assert.deepEqual(intents(model), []); // no round trip
  click(root.querySelector('.blb-flag[data-flag="4"]'));
  assert.deepEqual(intents(model), [{ play: ["r7", 4] }]);
  assert.equal(root.dataset.busy, "true");
  assert.equal(r7.getAttribute("aria-pressed"), "false");
  assert.equal(root.querySelectorAll('[data-legal="true"]').length, 0);
});

test("game: Escape drops the tapped card; a card with no move is aria-disabled", () => {
  const { root, model } = mount(game());
  const b2 = root.querySelector('[data-card="b2"]');
  b2.focus();
  press(b2, "Enter");
  assert.equal(b2.getAttribute("aria-pressed"), "true");
  press(b2, "Escape");
  assert.equal(b2.getAttribute("aria-pressed"), "false");
  const g5 = root.querySelector('[data-card="g5"]');
  assert.equal(g5.getAttribute("aria-disabled"), "true");
  click(g5);
  click(root.querySelector('.blb-flag[data-flag="2"]'));
  assert.deepEqual(intents(model), [{ claim: 2 }]);
});

test("game: one tab stop per group, arrows move within a group and between groups", () => {
  const { root } = mount(game());
  const stops = root.querySelectorAll('[data-nav][tabindex="0"]').map((i) => i.dataset.nav);
  assert.deepEqual(stops, ["flags", "choices", "hand"]);
  const r7 = root.querySelector('[data-card="r7"]');
  r7.focus();
  press(r7, "ArrowRight");
  assert.equal(page.document.activeElement.dataset.card, "b2");
  press(page.document.activeElement, "End");
  assert.equal(page.document.activeElement.dataset.card, "g5");
  press(page.document.activeElement, "ArrowUp");
  assert.equal(page.document.activeElement.dataset.nav, "choices");
});

test("a redraw updates the page in place: the same elements, the focus where it was", () => {
  const { root, model } = mount(game());
  const b2 = root.querySelector('[data-card="b2"]');
  const flag4 = root.querySelector('.blb-flag[data-flag="4"]');
  b2.focus();
  // r7 was played to flag 4: the hand loses it, flag 4 gains it
  const flags = game().flags.map((f) => (f.n === 4 ? { ...f, you: [card("r7")] } : f));
  model.set(game({ rev: 2, flags, hand: [card("b2", { flags: [1] }), card("g5")] }));
  assert.equal(root.querySelector('[data-card="b2"][data-zone="hand"]'), b2, "the same element");
  assert.equal(root.querySelector('.blb-flag[data-flag="4"]'), flag4);
  assert.equal(page.document.activeElement, b2, "the focus stayed");
  assert.equal(root.querySelectorAll('[data-zone="hand"]').length, 2);
  assert.equal(root.querySelector('[data-zone="board"][data-card="r7"]').dataset.flag, "4");
  assert.equal(root.dataset.rev, "2");
});

test("a redraw that removes the focused card moves the focus to its group", () => {
  const { root, model } = mount(game());
  root.querySelector('[data-card="r7"]').focus();
  model.set(game({ rev: 2, hand: [card("b2", { flags: [1] }), card("g5")] }));
  assert.equal(page.document.activeElement.dataset.nav, "hand");
});

test("the selection survives a redraw only while the card may still be played", () => {
  const { root, model } = mount(game());
  click(root.querySelector('[data-card="r7"]'));
  model.set(game({ rev: 2 }));
  assert.equal(root.querySelector('[data-card="r7"]').getAttribute("aria-pressed"), "true");
  model.set(game({ rev: 3, hand: [card("r7"), card("b2", { flags: [1] })] }));
  assert.equal(root.querySelector('[data-card="r7"]').getAttribute("aria-pressed"), "false");
  assert.equal(root.dataset.selected, "");
});

test("place mode: pick a palette card, then an empty slot", () => {
  const view = {
    mode: "game",
    place_mode: true,
    slot_text: "{side}, slot {slot}",
    flags: [flag(1, { you: [card("r1")], you_label: "you" })],
    palette: { label: "Cards", cards: [card("y1"), card("y2")] },
    places: [{ value: "hand:you", label: "Your hand" }],
    pick_text: "Put {card}",
  };
  const { root, model } = mount(view);
  const slot = root.querySelector('[data-place="1:you"]');
  assert.equal(slot.getAttribute("aria-disabled"), "true");
  assert.equal(slot.getAttribute("aria-label"), "you, slot 2");
  click(root.querySelector('[data-zone="palette"][data-card="y2"]'));
  assert.equal(slot.getAttribute("aria-disabled"), "false");
  assert.equal(root.querySelector(".blb-sr").textContent, "Put card y2");
  click(slot);
  click(root.querySelector('[data-action="take"]'));
  assert.deepEqual(intents(model), [{ place: ["y2", "1:you"] }, { take: "r1" }]);
});

test("every text is drawn as text: an author's markup makes no element", () => {
  const { root } = mount(puzzle({ question: XSS, proof: { ...PROOF, note: XSS }, hints: [XSS], feedback: { tone: "wrong", text: XSS, items: [XSS] } }));
  assert.equal(root.querySelectorAll("img, script").length, 0);
  assert.equal(root.querySelector(".blb-question").textContent, XSS);
  assert.equal(root.querySelector(".blb-note").textContent, XSS);
  const attributes = root.querySelectorAll("*").flatMap((e) => e.attributes.map((a) => a.name));
  assert.ok(!attributes.some((name) => name.startsWith("on")), "no inline handler");
});

test("render adds its listeners (the window's key listener too) and the cleanup removes them all", () => {
  assert.equal(page.window.listenerCount(), 0, "nothing is added when the module is loaded");
  const { root, model, cleanup } = mount(game());
  assert.equal(page.window.listenerCount(), 1);
  assert.ok(root.listenerCount() > 0);
  assert.equal(model.handlers.length, 3); // change:view, change:table_state, msg:custom
  cleanup();
  assert.equal(page.window.listenerCount(), 0);
  assert.equal(root.listenerCount(), 0);
  assert.equal(model.handlers.length, 0);
});
