// board.js's three-player mode (R32-R37) drawn into the fake DOM: the three fronts, each labelled
// with its two players, every flag's two sides, and the game mode's taps on it (hand card, then a
// lit flag; a claimable flag; the deck; pass).
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
const FRONT_OF = { 1: "ab", 2: "ab", 3: "ab", 4: "bc", 5: "bc", 6: "bc", 7: "ca", 8: "ca", 9: "ca" };
const side = (seat, cards = []) => ({ seat, label: `${seat} side`, cards, you: seat === "a" });

function flag(n, extra = {}) {
  const [x, y] = FRONT_OF[n];
  const order = y === "a" ? [x, y] : x === "a" ? [y, x] : [x, y]; // the learner at the bottom
  return { n, label: `flag ${n}`, slots: 3, sides: order.map((s) => side(s)), ...extra };
}

function three(extra = {}) {
  return {
    mode: "three",
    rev: 1,
    prompt: "Your turn",
    status: "Flags held",
    board_label: "three-player table",
    players: ["a", "b", "c"].map((seat) => ({ seat, label: `${seat}: 7 cards`, you: seat === "a", turn: seat === "a" })),
    fronts: [
      { key: "ab", label: "Front A–B", flags: [1, 2, 3], yours: true },
      { key: "bc", label: "Front B–C", flags: [4, 5, 6], yours: false },
      { key: "ca", label: "Front C–A", flags: [7, 8, 9], yours: true },
    ],
    flags: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => flag(n)),
    hand: [card("r7", { flags: [1, 2, 3, 7, 8, 9] }), card("b2")],
    hand_label: "Your hand",
    chosen_text: "{card}: to flag {flags}",
    targets: [],
    selection: [],
    decks: [{ deck: "troops", label: "Troops", enabled: false }],
    choices: [],
    feedback: {},
    ...extra,
  };
}

function mount(view) {
  const el = page.document.createElement("div");
  page.document.body.append(el);
  const model = fakeModel(view);
  board.default.render({ model, el });
  return { model, root: el.querySelector(".blb") };
}

const click = (el) => el.dispatchEvent({ type: "click", bubbles: true });
// the intents sent (the board also sends {"ping": true} once, to learn whether a kernel is behind it)
const intents = (model) => model.sent.filter((m) => "intent" in m).map((m) => m.intent);
const frontOf = (el) => {
  const front = el.closest("[data-front]");
  return front ? front.getAttribute("data-front") : null;
};

test("R32 three: the three fronts in order, each labelled with its two players, three flags each", () => {
  const { root } = mount(three());
  assert.equal(root.getAttribute("data-mode"), "three");
  const fronts = root.querySelectorAll("[data-front]");
  assert.deepEqual(fronts.map((f) => f.getAttribute("data-front")), ["ab", "bc", "ca"]);
  assert.deepEqual(fronts.map((f) => f.getAttribute("aria-label")), ["Front A–B", "Front B–C", "Front C–A"]);
  assert.deepEqual(fronts.map((f) => f.querySelector(".blb-front-label").textContent), ["Front A–B", "Front B–C", "Front C–A"]);
  assert.deepEqual(fronts.map((f) => f.querySelectorAll(".blb-flag").map((b) => b.getAttribute("data-flag"))), [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]);
});

test("R32 three: each flag has the sides of its front's two players, three slots each, the learner's at the bottom", () => {
  const seven = flag(7);
  seven.sides[1].cards = [card("r5", { label: "red 5 at flag 7" })];
  const { root } = mount(three({ flags: [1, 2, 3, 4, 5, 6, seven, 8, 9].map((f) => (typeof f === "number" ? flag(f) : f)) }));
  const seats = (n) => root.querySelector(`.blb-col[data-col="${n}"]`).querySelectorAll(".blb-side").map((s) => s.getAttribute("data-seat"));
  assert.deepEqual([seats(1), seats(5), seats(7)], [["b", "a"], ["b", "c"], ["c", "a"]]);
  const col = root.querySelector('.blb-col[data-col="7"]');
  assert.equal(col.querySelectorAll(".blb-slot").length, 5);
  const played = col.querySelector('[data-card="r5"]');
  assert.equal(played.getAttribute("data-zone"), "board");
  assert.equal(played.getAttribute("data-side"), "a");
});

test("R34 three: a tapped card lights the learner's flags; a lit flag plays it, another flag does not", () => {
  const { root, model } = mount(three());
  click(root.querySelector('[data-card="r7"][data-zone="hand"]'));
  const lit = root.querySelectorAll('.blb-flag[data-legal="true"]').map((b) => b.getAttribute("data-flag"));
  assert.deepEqual(lit, ["1", "2", "3", "7", "8", "9"]);
  const litFronts = root.querySelectorAll('.blb-flag[data-legal="true"]').map(frontOf);
  assert.deepEqual(litFronts, ["ab", "ab", "ab", "ca", "ca", "ca"]); // the learner's two fronts
  click(root.querySelector('.blb-flag[data-flag="5"]')); // B–C is not the learner's front: the card is dropped
  assert.deepEqual(intents(model), []);
  click(root.querySelector('[data-card="r7"][data-zone="hand"]'));
  click(root.querySelector('.blb-flag[data-flag="8"]'));
  assert.deepEqual(intents(model), [{ play: ["r7", 8] }]);
  click(root.querySelector('[data-card="b2"][data-zone="hand"]')); // a card with nothing to play to
  assert.deepEqual(intents(model).length, 1);
});

test("R35 three: a claimable flag is marked and a tap claims it; the deck and end are buttons", () => {
  const claimable = three({
    hand: [card("r7")],
    flags: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => flag(n, n === 2 ? { claim: true, claimable: true, mark: "claim" } : {})),
    choices: [{ action: "end", label: "End claiming" }],
  });
  const { root, model } = mount(claimable);
  const two = root.querySelector('.blb-flag[data-flag="2"]');
  assert.equal(two.getAttribute("data-claimable"), "true");
  assert.equal(frontOf(two), "ab");
  click(two);
  click(root.querySelector('[data-action="end"]'));
  click(root.querySelector('[data-action="draw"]')); // aria-disabled: nothing
  assert.deepEqual(intents(model), [{ claim: 2 }, { do: "end" }]);
});

test("R36 three: a claimed flag shows its holder; the feedback says the game's end and the bots' moves", () => {
  const { root } = mount(three({
    flags: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => flag(n, n === 4 ? { owner: "b" } : {})),
    feedback: { tone: "over", text: "B wins by breakthrough (R36)", items: ["B claims flag 4"] },
  }));
  const four = root.querySelector('.blb-flag[data-flag="4"]');
  assert.ok(four.classList.contains("blb-claimed-b"));
  assert.equal(frontOf(four), "bc");
  const fb = root.querySelector('[data-role="feedback"]');
  assert.equal(fb.querySelector(".blb-feedback-text").textContent, "B wins by breakthrough (R36)");
  assert.deepEqual(fb.querySelectorAll("li").map((li) => li.textContent), ["B claims flag 4"]);
});

test("R34 three: keys alone: one tab stop per group, Enter on a card then on a lit flag plays it, Escape drops it", () => {
  const { root, model } = mount(three());
  const press = (el, key) => el.dispatchEvent({ type: "keydown", key, bubbles: true });
  const stops = root.querySelectorAll('[data-nav][tabindex="0"]').map((i) => i.dataset.nav);
  assert.deepEqual(stops, ["flags", "choices", "hand"]);
  const r7 = root.querySelector('[data-card="r7"][data-zone="hand"]');
  r7.focus();
  press(r7, "Enter");
  assert.equal(r7.getAttribute("aria-pressed"), "true");
  press(r7, "Escape");
  assert.equal(root.querySelectorAll('.blb-flag[data-legal="true"]').length, 0);
  press(r7, "Enter");
  const seven = root.querySelector('.blb-flag[data-flag="7"]');
  assert.equal(frontOf(seven), "ca");
  seven.focus();
  press(seven, "Enter");
  assert.deepEqual(intents(model), [{ play: ["r7", 7] }]);
});
