// The board without a kernel: a puzzle whose response table is in its saved state answers taps from
// it at once (looked up by the intent's key, never decided), queues them in localStorage under the
// puzzle's id, replays them to a live widget once one answers the ping, and forgets them when the
// widget says they are recorded.  A tap with no entry says why it cannot be answered yet.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { gzipSync } from "node:zlib";
import { fakeModel, installDom, memoryStorage } from "./fake_dom.mjs";
import { loadBoard } from "./load.mjs";

const board = await loadBoard();
let page;

beforeEach(() => {
  page = installDom();
  page.window.localStorage = memoryStorage();
});

const QUEUE = "battleline-lab.queue.wedge";
const button = (value, label, extra = {}) => ({ value, label, css: "bl-answer", ...extra });
const base = {
  mode: "puzzle",
  board_label: "board",
  question: "Can you claim flag 5?",
  answers_label: "answers",
  hints: [],
  proof_label: "Proof",
  proof_waiting: "The proof appears here.",
  starting: "The lesson is starting: try again in a moment.",
};
const PROOF = (index) => ({ steps: [[{ text: "one" }], [{ text: "two" }]], index, counter: `step ${index + 1} of 2` });

// a small table in the Python format (controllers/responses.py): waiting -(yes)-> wrong -(no)-> right, step 0 <-> 1
function table() {
  const views = [
    { ...base, answers: [button("yes", "Yes"), button("no", "No")], feedback: { tone: "info", state: "waiting", text: "Your answer?" } },
    { ...base, answers: [button("yes", "Yes", { state: "wrong" }), button("no", "No")], feedback: { tone: "wrong", state: "wrong", text: "Look at flag 5 (R12)." } },
    { ...base, answers: [button("yes", "Yes", { enabled: false }), button("no", "No", { enabled: false, state: "right" })], feedback: { tone: "right", state: "right", text: "Right, late." }, proof: PROOF(0) },
    { ...base, answers: [button("yes", "Yes", { enabled: false }), button("no", "No", { enabled: false, state: "right" })], feedback: { tone: "right", state: "right", text: "Right, late." }, proof: PROOF(1) },
  ];
  const keys = [...new Set(views.flatMap((v) => Object.keys(v)))].sort();
  const parts = [];
  const shapes = views.map((v) => Object.keys(v).sort().flatMap((k) => [keys.indexOf(k), parts.push(v[k]) - 1]));
  const intents = ['{"answer":"yes"}', '{"answer":"no"}', '{"step":1}', '{"step":-1}'];
  const states = [
    [0, 0, 1, 1, 2],
    [1, 0, 1, 1, 2],
    [2, 2, 3, 3, 2],
    [3, 2, 3, 3, 2],
  ];
  return { version: 1, puzzle: "wedge", lang: "en", start: 0, keys, parts, views: shapes, intents, states };
}

const packed = (t) => gzipSync(Buffer.from(JSON.stringify(t))).toString("base64");

async function mount(traits = { table: packed(table()), table_state: 0 }) {
  const el = page.document.createElement("div");
  page.document.body.append(el);
  const model = fakeModel(board.tableView(table(), 0), traits);
  const cleanup = board.default.render({ model, el });
  const root = el.querySelector(".blb");
  // the table is inflated asynchronously (DecompressionStream): wait until it is (a bound, not a timing)
  for (let i = 0; i < 3000 && traits.table && root.dataset.table !== "ready"; i += 1) await new Promise((r) => setTimeout(r, 5));
  assert.ok(!traits.table || root.dataset.table === "ready", "the table was inflated");
  return { el, model, cleanup, root };
}

const click = (el) => el.dispatchEvent({ type: "click", bubbles: true });
const answer = (root, value) => click(root.querySelector(`[data-action="answer"][data-value="${value}"]`));
const feedback = (root) => root.querySelector('[data-role="feedback"]').textContent;
const intents = (model) => model.sent.filter((m) => "intent" in m).map((m) => m.intent);
const queue = () => JSON.parse(page.window.localStorage.getItem(QUEUE) || "null");

test("the intent key is the JSON with sorted keys, as Python's intent_key writes it", () => {
  assert.equal(board.intentKey({ play: ["r7", 3] }), '{"play":["r7",3]}');
  assert.equal(board.intentKey({ hint: true }), '{"hint":true}');
  assert.equal(board.intentKey({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: "中" } }), '{"a":{"c":"中","d":[1,{"e":3,"f":2}]},"b":1}');
});

test("lookups: an intent's next state, or undefined where the table has no entry", () => {
  const t = table();
  assert.equal(board.lookup(t, 0, { answer: "yes" }), 1);
  assert.equal(board.lookup(t, 1, { answer: "no" }), 2);
  assert.equal(board.lookup(t, 0, { hint: true }), undefined);
  assert.equal(board.lookup(t, -1, { answer: "yes" }), undefined);
  assert.equal(board.lookup(null, 0, { answer: "yes" }), undefined);
  assert.equal(board.tableView(t, 3).proof.index, 1);
  assert.equal(board.walk(t, 0, [{ answer: "yes" }, { answer: "no" }, { step: 1 }]), 3);
  assert.equal(board.walk(t, 0, [{ answer: "yes" }, { hint: true }, { answer: "no" }]), 1); // stops where one is missing
});

test("R12 without a kernel: wrong then right answered from the table at once, the proof steps, the taps queued", async () => {
  const { root, model } = await mount();
  assert.deepEqual(model.sent, [{ ping: true }]); // a kernel would answer it; none does
  answer(root, "yes");
  assert.equal(feedback(root), "Look at flag 5 (R12).");
  answer(root, "no");
  assert.equal(feedback(root), "Right, late.");
  assert.equal(root.querySelector('[data-role="proof-step"]').textContent, "one");
  click(root.querySelector('[data-action="step-next"]'));
  assert.equal(root.querySelector('[data-role="proof-step"]').textContent, "two");
  root.querySelector('[data-action="step-back"]').focus();
  root.querySelector('[data-action="step-back"]').dispatchEvent({ type: "keydown", key: "k", bubbles: true });
  assert.equal(root.querySelector('[data-role="proof-step"]').textContent, "one");
  assert.deepEqual(intents(model), [], "nothing goes to a kernel that is not there");
  assert.deepEqual(queue().intents, [{ answer: "yes" }, { answer: "no" }, { step: 1 }, { step: -1 }]);
  assert.equal(root.querySelector('[data-role="starting"]'), null);
});

test("a tap with no entry in the table says the lesson is starting (and is sent, should a kernel be there)", async () => {
  const t = table();
  t.states[0] = [0, 0, 1]; // no entry for "no" here
  const { root, model } = await mount({ table: packed(t), table_state: 0 });
  answer(root, "no");
  assert.equal(root.querySelector('[data-role="starting"]').textContent, "The lesson is starting: try again in a moment.");
  assert.equal(feedback(root), "Your answer?");
  assert.deepEqual(intents(model), [{ answer: "no" }]);
  assert.equal(queue(), null);
});

test("without a table (a board saved without one) every tap says the lesson is starting", async () => {
  const { root, model } = await mount({});
  answer(root, "yes");
  assert.equal(root.querySelector('[data-role="starting"]').textContent, "The lesson is starting: try again in a moment.");
  assert.deepEqual(intents(model), [{ answer: "yes" }]);
  model.set({ ...board.tableView(table(), 1), rev: 2 }); // the kernel's answer: the line goes
  assert.equal(root.querySelector('[data-role="starting"]'), null);
});

test("a reloaded page shows the queued taps' view again, from the table", async () => {
  const first = await mount();
  answer(first.root, "yes");
  answer(first.root, "no");
  first.cleanup();
  const again = await mount();
  assert.equal(feedback(again.root), "Right, late.");
  assert.equal(queue().intents.length, 2);
});

test("the live widget answers the ping: the queue is replayed once, and forgotten when recorded", async () => {
  const offline = await mount();
  answer(offline.root, "yes");
  answer(offline.root, "no");
  const { id } = queue();
  // the kernel ran the cell: a new, live widget of the same puzzle
  const live = await mount();
  live.model.receive({ pong: true });
  assert.deepEqual(live.model.sent.filter((m) => m.replay), [{ replay: { id, intents: [{ answer: "yes" }, { answer: "no" }] } }]);
  live.model.receive({ pong: true }); // a second pong sends nothing again
  assert.equal(live.model.sent.filter((m) => m.replay).length, 1);
  live.model.receive({ replayed: "another-id" });
  assert.ok(queue(), "a queue is forgotten only by its own id");
  live.model.receive({ replayed: id });
  assert.equal(queue(), null);
});

test("once live, a tap goes to the kernel, not to the table", async () => {
  const { root, model } = await mount();
  model.receive({ pong: true });
  answer(root, "yes");
  assert.deepEqual(intents(model), [{ answer: "yes" }]);
  assert.equal(feedback(root), "Your answer?"); // the kernel draws the answer
  assert.equal(root.dataset.busy, "true");
  assert.equal(queue(), null);
});
