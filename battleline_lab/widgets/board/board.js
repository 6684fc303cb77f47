// battleline_lab's board component (anywidget front end): draws a view model, sends intents back.
//
// The Python side (battleline_lab/widgets/board/__init__.py) sets the synced trait `view`: a JSON
// description of what to draw (cards per flag and side, the hand, what may be tapped, the legal
// flags of each hand card, claimable flags, highlights, ghosts, every text already in the
// learner's language).  This module draws it and sends intents ({"play": ["r7", 3]},
// {"claim": 5}, {"draw": "troops"}, {"answer": "yes"}, {"step": 1}, ...) with model.send.
// Selection, hover, focus and highlighting live here; rules never do: which flags a card may
// go to comes in the view model, and Python decides what an intent does.
//
// Its shape (as chessground's): one state object per drawn board ({view, taps, roving}); `tap`,
// a pure function, is the tap state machine (what a tap, a key or a drop does to the selection
// and which intent it sends; exported, unit-tested with `node --test` against
// tests/data/tap_cases.json, the same table Python's `Taps` is tested against); small `draw*`
// functions build the parts and `patch` updates the DOM in place (an element with the same
// data-key, or the same tag at the same place, is kept: focus stays where it was); one table of
// DOM handlers, added in `render` and removed by its cleanup (the key listener too).
//
// Stable hooks (a contract for tests): data-card, data-zone, data-flag, data-legal,
// data-claimable, data-action (+ data-deck / data-value), data-role="feedback" and
// data-role="proof-step".  No inline event handler attribute and no <script> is ever written:
// listeners are added with addEventListener; texts are set with textContent.

// -- the view model (what Python's board_view() / game and editor views send) ---------------------

/**
 * One card (Python: `card_view`).
 * @typedef {object} CardView
 * @property {string} id notation ("r7", "alexander")
 * @property {string} label accessible name (where it lies, if on a flag)
 * @property {string} value the big value ("7", or a tactic's short value)
 * @property {string} name a troop's or tactic's short name
 * @property {string} fill background colour
 * @property {string} ink text colour
 * @property {string} [letter] a troop's colour letter (in the learner's language)
 * @property {string} [colour] a troop's colour letter (r, g, b, y, p, o): class blb-colour-X
 * @property {string} [mark] a tactic's mark (★ wild, ☁ environment, ⚔ guile)
 * @property {boolean} [tactic]
 * @property {boolean} [wild]
 * @property {boolean} [environment]
 * @property {boolean} [highlight]
 * @property {boolean} [ghost] a card that could still come (opponent's side)
 * @property {number[]} [flags] hand card: the flags it may be played to (tap card, tap flag)
 * @property {boolean} [kernel] hand card: the session makes its next choices ({"select": id})
 * @property {boolean} [chosen] hand card: the session holds it (aria-pressed)
 * @property {boolean} [placed] palette card already on the board (place mode)
 * @property {boolean} [pick] puzzle mode: a tap offers it as a claim's evidence ({"evidence": id})
 */

/**
 * One flag (Python: `flag_views`, plus what each activity adds).
 * @typedef {object} FlagView
 * @property {number} n 1-9
 * @property {string} label
 * @property {number} [slots] cards a side may hold (3, 4 with Mud)
 * @property {CardView[]} you
 * @property {CardView[]} opponent
 * @property {string} [you_label]
 * @property {string} [opponent_label]
 * @property {CardView[]} [env] environment cards
 * @property {CardView[]} [ghosts] could still come to the opponent's side
 * @property {"you"|"opponent"} [owner] who claimed it
 * @property {"you"|"opponent"} [first] who completed first (the "1st" badge)
 * @property {string} [first_text]
 * @property {string} [first_label]
 * @property {boolean} [focus] the question is about it
 * @property {boolean} [legal] the session's held choice may go here ({"flag": n})
 * @property {boolean} [choose] a destination the session asks for ({"flag": n})
 * @property {boolean} [claim] a tap claims it ({"claim": n})
 * @property {boolean} [claimable] marked data-claimable
 * @property {string} [mark] a small mark under the number
 * @property {boolean|null} [answer] "which flags" puzzles: the flag is an answer toggle (aria-pressed)
 * @property {string} [css] extra classes of the flag button (puzzle mode)
 * @property {boolean} [inert] aria-disabled: a tap does nothing
 * @property {{label: string, text: string, outs: string}} [odds] the coach's odds
 */

/**
 * A button of the view model (decks, choices, answers, the hint).
 * @typedef {object} ButtonView
 * @property {string} [action] "pass", "end", "cancel", "check", "answer" (the default of answers), ...
 * @property {string} [value] an answer's value
 * @property {string} [deck] a deck ("troops", "tactics")
 * @property {string} label
 * @property {boolean} [enabled] false: aria-disabled
 * @property {boolean} [primary]
 * @property {boolean} [pressed]
 * @property {string} [state] "right", "wrong", "hint": class blb-STATE
 * @property {string} [css] extra classes (puzzle mode)
 * @property {string} [aria]
 * @property {string} [title]
 * @property {boolean} [hidden] the hint button keeps its place, invisible
 */

/**
 * A proof on show: steps of text parts, a part with `href` is a rule link.
 * @typedef {object} ProofView
 * @property {Array<Array<{text: string, href?: string, rule?: string}>>|string[]} steps
 * @property {number} index the step shown
 * @property {string} [counter] "step 2 of 5"
 * @property {string} [note]
 * @property {string} [label]
 * @property {string} [rule_label] "{rule}" template of a rule link's name
 * @property {string} [back]
 * @property {string} [next]
 * @property {string} [back_label]
 * @property {string} [next_label]
 */

/**
 * The whole view model (the synced trait `view`).  `mode` "puzzle" (PuzzleWidget, the gym) draws
 * the puzzle layout, "three" the three-player table (ThreeView); anything else ("game", the
 * explorer and the editor's place mode) the game's.
 * @typedef {object} BoardView
 * @property {"game"|"puzzle"|string} [mode]
 * @property {number} [rev] revision, set by Board.show
 * @property {string} [lang]
 * @property {string} [board_label]
 * @property {FlagView[]} [flags]
 * @property {CardView[]} [hand]
 * @property {string} [hand_label]
 * @property {string[]} [targets] cards on the table a tactic may act on
 * @property {string[]} [selection] the choice the session holds (Escape sends {"cancel": true})
 * @property {string} [prompt]
 * @property {string} [status]
 * @property {string} [chosen_text] "{card}" "{flags}" template said when a card is tapped
 * @property {{label: string, cards?: CardView[]}} [opponent_hand]
 * @property {Array<ButtonView & {deck: string}>} [decks]
 * @property {ButtonView[]} [choices]
 * @property {ButtonView[]} [answers]
 * @property {string} [answers_label]
 * @property {ButtonView} [hint]
 * @property {string[]} [hints]
 * @property {{tone?: string, state?: string, text?: string, lines?: string[], items?: string[]}} [feedback]
 * @property {ProofView} [proof]
 * @property {string} [proof_label] puzzle mode
 * @property {string} [proof_waiting] puzzle mode: said in the proof panel before the answer
 * @property {string} [step_back] puzzle mode
 * @property {string} [step_next] puzzle mode
 * @property {string} [step_back_label] puzzle mode
 * @property {string} [step_next_label] puzzle mode
 * @property {string} [question]
 * @property {string} [odds_note]
 * @property {Array<{side: "you"|"opponent", label: string, cards: CardView[]}>} [held] puzzle mode: hands
 * @property {Array<{caption: string, cards: CardView[]}>} [rows] puzzle mode: the question's card rows
 * @property {{prompt: string, ghost: boolean, rows: Array<{caption: string, cards: CardView[]}>, picked?: string,
 *   state?: "right"|"wrong"}} [evidence] puzzle mode: a claim's evidence stage (the cards off the flags to tap)
 * @property {string} [environment] puzzle mode
 * @property {boolean} [place_mode] explorer, editor: empty slots are places
 * @property {{label?: string, cards: CardView[]}} [palette] the cards to place
 * @property {Array<{value: string, label: string, aria?: string}>} [places] more places
 * @property {string} [places_label]
 * @property {string} [slot_text] "{side}, slot {slot}"
 * @property {string} [pick_text] "{card}" template said when a palette card is picked
 */

/**
 * The three-player game's view (`mode: "three"`, Python: `ThreeGameView`): the fronts stacked,
 * each labelled with its two players; every flag has the two sides of its front (top, then
 * bottom).  The hand, the deck, the choices and the feedback are the game mode's, and so are
 * the taps (hand card, then a lit flag; a claimable flag; the deck; pass, end).
 * @typedef {object} ThreeView
 * @property {"three"} mode
 * @property {number} [rev]
 * @property {string} [prompt]
 * @property {string} [status]
 * @property {string} [board_label]
 * @property {Array<{seat: string, label: string, you: boolean, turn: boolean}>} players
 * @property {Array<{key: string, label: string, flags: number[], yours: boolean}>} fronts
 * @property {Array<{n: number, label: string, slots: number, owner?: string, claimable?: boolean, claim?: boolean,
 *   mark?: string, sides: Array<{seat: string, label: string, cards: CardView[], you: boolean}>}>} flags
 * @property {CardView[]} hand
 * @property {string} [hand_label]
 * @property {string} [chosen_text]
 * @property {Array<ButtonView & {deck: string}>} [decks]
 * @property {ButtonView[]} [choices]
 * @property {{tone?: string, text?: string, items?: string[]}} [feedback]
 */

// -- the tap state machine (pure: no DOM) ---------------------------------------------------------

/**
 * What the browser keeps of its own: the hand card tapped (or dragged) whose flags it lights, and
 * the palette card picked (place mode).  Everything else goes to the session as an intent.
 * @typedef {{sel: string|null, pick: string|null}} TapState
 */

/**
 * What was tapped: a hook of the board, a key, or a drag.
 * @typedef {{hand: string} | {flag: number} | {palette: string} | {place: string} | {take: string}
 *   | {target: string} | {evidence: string} | {button: string, value?: string|null} | {key: "Escape"|"j"|"k"}
 *   | {drag: string} | {drop: number}} Hit
 */

/** @typedef {{state: TapState, intent: object|null, refused: boolean}} TapResult */

/** The hand card `id` of `view`, if any. */
export const handCard = (view, id) => (view.hand || []).find((c) => c.id === id);
/** The flag `n` of `view`, if any. */
export const flagOf = (view, n) => (view.flags || []).find((f) => f.n === n);
const held = (selection) => (Array.isArray(selection) ? selection.length > 0 : Boolean(selection));

/** The selection that still holds in `view` (a card no longer playable, a palette card gone, is dropped). */
export function keep(view, state) {
  const c = state.sel ? handCard(view, state.sel) : null;
  const pick = state.pick && ((view.palette || {}).cards || []).some((p) => p.id === state.pick) ? state.pick : null;
  return { sel: c && c.flags ? state.sel : null, pick };
}

/** The flags lit data-legal: the tapped card's, else the ones the session's choice may go to. */
export function legalFlags(view, state) {
  if (state.sel) {
    const c = handCard(view, state.sel);
    return c && c.flags ? [...c.flags] : [];
  }
  return (view.flags || []).filter((f) => f.legal).map((f) => f.n);
}

/** The places a picked card may be put (place mode): the empty slots, then view.places. */
export function places(view) {
  if (!view.place_mode) return [];
  const out = [];
  for (const f of view.flags || []) {
    for (const who of ["opponent", "you"]) if ((f[who] || []).length < Number(f.slots || 3)) out.push(`${f.n}:${who}`);
  }
  return out.concat((view.places || []).map((p) => p.value));
}

/** The cards a tap offers as a claim's evidence (puzzle mode, `pick`): on the flags, in the hands, in the rows. */
export function evidenceCards(view) {
  const cards = (view.flags || []).flatMap((f) => [...(f.opponent || []), ...(f.you || []), ...(f.env || [])]);
  for (const held of view.held || []) cards.push(...(held.cards || []));
  for (const row of (view.evidence || {}).rows || []) cards.push(...(row.cards || []));
  return cards.filter((c) => c.pick && !c.ghost).map((c) => c.id);
}

/** The buttons of `view` a tap may act on, each with its action (the proof's step buttons too). */
export function buttons(view) {
  const out = [
    ...(view.decks || []).map((d) => ({ ...d, action: "draw" })),
    ...(view.choices || []),
    ...(view.answers || []).map((a) => ({ ...a, action: a.action || "answer" })),
  ];
  if (view.hint) out.push({ ...view.hint, action: "hint" });
  const p = view.proof;
  if (p) {
    const count = (p.steps || []).length;
    out.push({ action: "step-back", enabled: p.index > 0 }, { action: "step-next", enabled: p.index < count - 1 });
  }
  return out;
}

const refuse = (state) => ({ state, intent: null, refused: true });
const to = (state, intent) => ({ state, intent: intent || null, refused: false });

function escape(view, s) {
  if (s.pick) return to({ ...s, pick: null });
  if (s.sel) return to({ ...s, sel: null });
  return to(s, held(view.selection) ? { cancel: true } : null);
}

// one handler per kind of hit: (view, state, hit) -> TapResult
const TAPS = {
  hand(view, s, hit) {
    const c = handCard(view, hit.hand);
    if (!c || !(c.flags || c.kernel)) return refuse(s); // aria-disabled
    if (c.flags) return to({ ...s, sel: s.sel === c.id ? null : c.id }); // a second tap cancels
    return to({ ...s, sel: null }, { select: c.id });
  },
  flag(view, s, hit) {
    const n = hit.flag;
    const f = flagOf(view, n);
    if (!f || f.inert) return refuse(s);
    if (f.answer !== undefined && f.answer !== null) return to(s, { answer: String(n) });
    if (s.sel) {
      const next = { ...s, sel: null }; // a tap on a flag the card may not go to cancels
      return legalFlags(view, s).includes(n) ? to(next, { play: [s.sel, n] }) : refuse(next);
    }
    if (f.legal || f.choose) return to(s, { flag: n });
    if (f.claim) return to(s, { claim: n });
    return refuse(s);
  },
  palette(view, s, hit) {
    if (!((view.palette || {}).cards || []).some((c) => c.id === hit.palette)) return refuse(s);
    return to({ sel: null, pick: s.pick === hit.palette ? null : hit.palette }); // a second tap cancels
  },
  place(view, s, hit) {
    if (!places(view).includes(hit.place)) return refuse(s);
    return to({ ...s, pick: null }, s.pick ? { place: [s.pick, hit.place] } : null);
  },
  take(view, s, hit) {
    if (!view.place_mode) return refuse(s);
    const placed = (view.flags || []).flatMap((f) => [...(f.you || []), ...(f.opponent || [])].map((c) => c.id));
    return placed.includes(hit.take) ? to(s, { take: hit.take }) : refuse(s);
  },
  target(view, s, hit) {
    return (view.targets || []).includes(hit.target) ? to(s, { target: hit.target }) : refuse(s);
  },
  evidence(view, s, hit) {
    return evidenceCards(view).includes(hit.evidence) ? to(s, { evidence: hit.evidence }) : refuse(s);
  },
  button(view, s, hit) {
    const value = hit.value === undefined || hit.value === null ? null : String(hit.value);
    const item = buttons(view).find(
      (b) => b.action === hit.button && (value === null || value === String(b.value) || value === b.deck),
    );
    if (!item || item.enabled === false) return refuse(s);
    switch (item.action) {
      case "draw":
        return to(s, { draw: item.deck });
      case "cancel":
        return escape(view, s);
      case "answer":
        return to(s, { answer: item.value });
      case "hint":
        return to(s, { hint: true });
      case "step-next":
        return to(s, { step: 1 });
      case "step-back":
        return to(s, { step: -1 });
      default:
        return to(s, { do: item.action });
    }
  },
  key(view, s, hit) {
    if (hit.key === "Escape") return escape(view, s);
    if ((hit.key === "j" || hit.key === "k") && view.proof) return to(s, { step: hit.key === "j" ? 1 : -1 });
    return refuse(s);
  },
  drag(view, s, hit) {
    const c = handCard(view, hit.drag);
    return c && c.flags ? to({ ...s, sel: c.id }) : refuse(s);
  },
  drop(view, s, hit) {
    return s.sel && legalFlags(view, s).includes(hit.drop) ? to({ ...s, sel: null }, { play: [s.sel, hit.drop] }) : refuse(s);
  },
};

/**
 * The tap state machine: what `hit` does in `view` with the selection `state`.  A refused hit is
 * one a learner could not make (a hook not on offer, aria-disabled): nothing is sent.
 * @param {BoardView} view
 * @param {TapState} state
 * @param {Hit} hit
 * @returns {TapResult}
 */
export function tap(view, state, hit) {
  const kind = Object.keys(hit).find((k) => k in TAPS);
  const s = keep(view, state);
  return kind ? TAPS[kind](view, s, hit) : refuse(s);
}

// -- the response table: answers without a kernel -------------------------------------------------
// A lesson's puzzle widget may carry its response table (Python: controllers/responses.py) in the
// synced trait `table`: every view a tap may lead to, worked out by the engine before the page was
// saved.  While no kernel is behind the board (a model restored from a notebook's saved widget state
// has no comm: its model.send goes nowhere, so the board's {"ping"} gets no {"pong"}), a tap is
// looked up there by its intent's key and the view it leads to is drawn at once: the table is data,
// the board looks up and never decides.  The taps so answered are queued in localStorage (keyed by the
// puzzle's id) and sent as {"replay": {id, intents}} when a live widget of that puzzle answers a ping;
// its {"replayed": id} lets the queue go.  A tap with no entry says why it cannot be answered yet.

const sorted = (value) => {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  return value;
};

/** The one key of an intent in a table: its JSON with sorted keys (Python: responses.intent_key). */
export const intentKey = (intent) => JSON.stringify(sorted(intent));

/** The state `intent` leads to from `state` in `table`, or undefined (no entry). */
export function lookup(table, state, intent) {
  const row = table && state >= 0 ? table.states[state] : null;
  if (!row) return undefined;
  const key = intentKey(intent);
  for (let i = 1; i < row.length; i += 2) if (table.intents[row[i]] === key) return row[i + 1];
  return undefined;
}

/** The view of `state` in `table`, put together from its parts (Python: responses.table_view). */
export function tableView(table, state) {
  const shape = table.views[table.states[state][0]];
  const view = {};
  for (let i = 0; i < shape.length; i += 2) view[table.keys[shape[i]]] = table.parts[shape[i + 1]];
  return view;
}

/** The table the trait `table` holds: gzip-compressed JSON in base64 (Python: responses.pack_table). */
export async function unpackTable(text) {
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

const QUEUE = "battleline-lab.queue.";

/** Where the queue is kept: localStorage, or (where the page may not use it) a map of this page's. */
function storageOf(win) {
  try {
    const storage = win.localStorage;
    storage.getItem(QUEUE);
    return storage;
  } catch {
    const kept = new Map();
    return { getItem: (k) => (kept.has(k) ? kept.get(k) : null), setItem: (k, v) => kept.set(k, String(v)), removeItem: (k) => kept.delete(k) };
  }
}

/** The taps answered from the table of puzzle `puzzle` and not yet recorded: {id, intents}, or null. */
export function queued(storage, puzzle) {
  try {
    const q = JSON.parse(storage.getItem(QUEUE + puzzle) || "null");
    return q && typeof q.id === "string" && Array.isArray(q.intents) ? q : null;
  } catch {
    return null;
  }
}

/** Queue `intent` (answered from the table) for puzzle `puzzle`; the queue keeps one id until it is recorded. */
export function enqueue(storage, puzzle, intent) {
  const q = queued(storage, puzzle) || { id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`, intents: [] };
  q.intents.push(intent);
  try {
    storage.setItem(QUEUE + puzzle, JSON.stringify(q));
  } catch {
    // a full storage: the tap is still answered; it is not recorded later
  }
  return q;
}

/** The queue of `puzzle` was recorded as `id`: it goes (a newer queue, another id, stays). */
export function forget(storage, puzzle, id) {
  const q = queued(storage, puzzle);
  if (q && q.id === id) storage.removeItem(QUEUE + puzzle);
}

/** The state of `table` after the queued `intents` from `state` (where one has no entry, it stops there). */
export function walk(table, state, intents) {
  let at = state;
  for (const intent of intents) {
    const next = lookup(table, at, intent);
    if (next === undefined) break;
    at = next;
  }
  return at;
}

// -- elements ------------------------------------------------------------------------------------

function h(tag, attrs, children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "text") el.textContent = String(value);
    else el.setAttribute(name, value === true ? "true" : String(value));
  }
  for (const child of children || []) if (child) el.append(child);
  return el;
}

function paint(el, card) {
  if (card.fill) el.style.background = card.fill;
  if (card.ink) el.style.color = card.ink;
}

function cardFace(card) {
  const head = h("span", { class: "blb-head", "aria-hidden": "true" }, [
    h("span", { class: "blb-v", text: card.value }),
    card.letter ? h("span", { class: "blb-l", text: card.letter }) : h("span", { class: "blb-m", text: card.mark || "" }),
  ]);
  return [head, h("span", { class: "blb-n", "aria-hidden": "true", text: card.name })];
}

function cardClasses(card, extra) {
  const css = ["blb-card", card.tactic ? "blb-tactic" : "blb-troop"];
  if (card.colour) css.push(`blb-colour-${card.colour}`);
  if (card.wild) css.push("blb-wild");
  if (card.environment) css.push("blb-environment");
  if (card.highlight) css.push("blb-highlight");
  if (card.ghost) css.push("blb-ghost");
  if (extra) css.push(extra);
  return css.join(" ");
}

// -- place mode (the formation explorer, the puzzle editor) -------------------------------------
// view.place_mode: the empty slots are tap targets (data-action="place", data-place="N:side"),
// a placed card is one too (data-action="take": take it off); view.palette is the cards to
// place (data-zone="palette"), view.places more places (a hand, the discards).  Tap a palette
// card, then a slot or a place: the intent {"place": [card, place]}; the session decides.
function slotTarget(v, f, who, i) {
  const label = (v.slot_text || "{side}, slot {slot}").replace("{side}", f[`${who}_label`] || who).replace("{slot}", String(i + 1));
  return h("button", {
    type: "button",
    class: "blb-slot blb-slot-target",
    "data-action": "place",
    "data-place": `${f.n}:${who}`,
    "data-flag": f.n,
    "data-side": who,
    "data-slot": i + 1,
    "data-key": `place:${f.n}:${who}:${i + 1}`,
    "data-nav": "slots",
    "aria-label": label,
    title: label,
  });
}

function paletteRow(p) {
  const row = h("div", { class: "blb-palette", role: "group", "aria-label": p.label || "" });
  if (p.label) row.append(h("div", { class: "blb-caption", text: p.label }));
  const cards = h("div", { class: "blb-palette-cards" });
  for (const c of p.cards || []) {
    const el = h(
      "button",
      {
        type: "button",
        class: cardClasses(c, `blb-pal-card${c.placed ? " blb-placed" : ""}`),
        "data-card": c.id,
        "data-zone": "palette",
        "data-key": `pal:${c.id}`,
        "data-nav": "palette",
        "aria-label": c.label,
        title: c.label,
        "aria-pressed": "false",
      },
      cardFace(c),
    );
    paint(el, c);
    cards.append(el);
  }
  row.append(cards);
  return row;
}

function placesRow(v) {
  const row = h("div", { class: "blb-places", role: "group", "aria-label": v.places_label || "" });
  for (const p of v.places || []) {
    row.append(
      h("button", {
        type: "button",
        class: "blb-button blb-place",
        "data-action": "place",
        "data-place": p.value,
        "data-key": `place:${p.value}`,
        "data-nav": "places",
        "aria-label": p.aria || p.label,
        title: p.aria || p.label,
      }, [h("span", { text: p.label })]),
    );
  }
  return row;
}

// the coach's odds on a contested flag (view model: flag.odds, made in Python from odds.py)
function oddsBadge(f) {
  const o = f.odds;
  if (!o) return null;
  return h("div", { class: "blb-odds", "data-role": "odds", "data-flag": f.n, role: "note", "aria-label": o.label, title: o.label }, [
    h("span", { class: "blb-odds-chance", "aria-hidden": "true", text: o.text }),
    h("span", { class: "blb-odds-outs", "aria-hidden": "true", text: o.outs }),
  ]);
}

// A rule link of a proof step (puzzle mode): the view model gives it relative to the notebook
// ("rules.md#R12" in notebooks/, "../rules.md#R12" in notebooks/zh/).  Where the notebook is,
// the page says: its tab's caption ("Name: ...\nPath: zh/03-claim-proofs.zh.ipynb"), else
// JupyterLab's address (.../lab/tree/<path>) or JupyterLite's (...?path=<path>).  The link is
// made an address of the same front end (JupyterLab .../lab/tree/<file>, JupyterLite
// .../lab/index.html?path=<file>; the site's rules.md is its web page rules.html), opened in a
// new tab; anything else is left as it is.
function notebookPath(node) {
  const panel = node && node.closest ? node.closest(".jp-NotebookPanel, .jp-Document") : null;
  if (panel && panel.id) {
    const tab = document.querySelector(`.lm-TabBar-tab[data-id="${CSS.escape(panel.id)}"]`);
    const found = tab ? /Path:\s*([^\n]+)/.exec(tab.getAttribute("title") || "") : null;
    if (found) return found[1].trim();
  }
  const here = new URL(window.location.href);
  if (here.searchParams.get("path")) return here.searchParams.get("path");
  const at = here.pathname.indexOf("/tree/");
  return at >= 0 ? decodeURIComponent(here.pathname.slice(at + "/tree/".length)) : null;
}

function ruleHref(href, node) {
  const [file, anchor] = href.split("#");
  if (/^[a-z][a-z0-9+.-]*:/i.test(file) || file.startsWith("/")) return href;
  const notebook = notebookPath(node);
  if (notebook === null) return href;
  const dir = notebook.split("/").slice(0, -1);
  for (const part of file.split("/")) {
    if (part === "..") dir.pop();
    else if (part && part !== ".") dir.push(part);
  }
  const path = dir.join("/");
  const here = new URL(window.location.href);
  const hash = anchor ? `#${anchor}` : "";
  const lite = /\/(lab|notebooks)\/index\.html$/.exec(here.pathname);
  if (lite && /(^|\/)rules\.md$/.test(path)) {
    // the site: its rules page (rules.html beside the front page, each rule an anchor) opens at once,
    // where JupyterLite opening rules.md in a new tab can lose the file to the restored workspace
    return `${here.origin}${here.pathname.slice(0, lite.index)}/rules.html${hash}`;
  }
  const lab = here.pathname.indexOf("/lab");
  if (here.pathname.endsWith("/index.html") || lab < 0) {
    const url = new URL(here.href); // JupyterLite: the same page, opening the file
    url.search = `?path=${encodeURIComponent(path)}`;
    url.hash = hash;
    return url.href;
  }
  const tree = path.split("/").map(encodeURIComponent).join("/");
  return `${here.origin}${here.pathname.slice(0, lab)}/lab/tree/${tree}${hash}`;
}

// -- patch: update the DOM in place ----------------------------------------------------------------
// The draw* functions build detached elements; `patch` makes a parent's children look like them,
// keeping every element that is already there (the same data-key or data-col, else the same tag at
// the same place): its attributes and text are updated, it is neither removed nor re-created, so
// the focus, the scroll and a hover stay where they are.

const keyOf = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") || node.getAttribute("data-col") || null : null);

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

function update(node, wanted) {
  if (node.nodeType !== 1) {
    if (node.data !== wanted.data) node.data = wanted.data;
    return;
  }
  for (const { name } of Array.from(node.attributes)) if (!wanted.hasAttribute(name)) node.removeAttribute(name);
  for (const { name, value } of Array.from(wanted.attributes)) if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  patch(node, Array.from(wanted.childNodes));
}

/** Make `parent`'s children match `wanted` (detached nodes), reusing what is there. */
export function patch(parent, wanted) {
  const old = Array.from(parent.childNodes);
  const keyed = new Map();
  for (const node of old) if (keyOf(node)) keyed.set(keyOf(node), node);
  const used = new Set();
  const next = wanted.map((w, i) => {
    const key = keyOf(w);
    const o = key ? keyed.get(key) : old[i];
    if (o && !used.has(o) && sameKind(o, w)) {
      used.add(o);
      update(o, w);
      return o;
    }
    return w;
  });
  // what went goes first, so that a kept element is only moved when the order really changed
  // (moving the focused element would blur it)
  for (const node of old) if (!used.has(node)) parent.removeChild(node);
  next.forEach((node, i) => {
    const here = parent.childNodes[i];
    if (here !== node) parent.insertBefore(node, here || null);
  });
}

// -- drawing: the parts of a board (pure builders of detached elements) --------------------------------

function drawBoardCard(v, card, f, side, slot) {
  const target = (v.targets || []).includes(card.id) && !card.ghost;
  const take = Boolean(v.place_mode) && !card.ghost && !target;
  const attrs = {
    class: cardClasses(card, target ? "blb-target" : ""),
    "data-card": card.id,
    "data-zone": card.ghost ? "ghost" : "board",
    "data-flag": f.n,
    "data-side": side,
    "aria-label": card.label,
    title: card.label,
    "data-slot": v.place_mode ? slot : null,
  };
  let el;
  if (card.pick && !card.ghost) {
    el = h("button", { ...attrs, class: `${attrs.class} blb-pick`, type: "button", "data-action": "evidence", "data-nav": "evidence", "data-key": `evidence:${card.id}` }, cardFace(card));
  } else if (take) {
    el = h("button", { ...attrs, type: "button", "data-action": "take", "data-nav": "slots", "data-key": `take:${card.id}:${f.n}:${side}` }, cardFace(card));
  } else if (target) {
    el = h("button", { ...attrs, type: "button", "data-action": "target", "data-nav": "targets", "data-key": `target:${card.id}` }, cardFace(card));
  } else {
    el = h("div", { ...attrs, role: "img" }, cardFace(card));
  }
  paint(el, card);
  return el;
}

function drawSide(v, f, who) {
  const cards = f[who] || [];
  const ghosts = who === "opponent" ? f.ghosts || [] : [];
  const slots = Math.max(f.slots || 3, cards.length + ghosts.length);
  const out = h("div", { class: `blb-side blb-${who}`, role: "group", "aria-label": f[`${who}_label`] || who });
  cards.forEach((c, i) => out.append(drawBoardCard(v, c, f, who, i + 1)));
  for (const c of ghosts) out.append(drawBoardCard(v, { ...c, ghost: true }, f, who));
  for (let i = cards.length + ghosts.length; i < slots; i += 1) {
    out.append(v.place_mode ? slotTarget(v, f, who, i) : h("div", { class: "blb-slot", "aria-hidden": "true" }));
  }
  return out;
}

function drawFlag(f) {
  const answer = f.answer !== undefined && f.answer !== null;
  const button = h(
    "button",
    {
      type: "button",
      class: `blb-flag${f.owner ? ` blb-claimed-${f.owner}` : ""}`,
      "data-flag": f.n,
      "data-key": `flag:${f.n}`,
      "data-nav": "flags",
      "data-claimable": f.claimable ? "true" : null,
      "data-action": answer ? "answer" : null,
      "data-value": answer ? String(f.n) : null,
      "aria-pressed": answer ? (f.answer ? "true" : "false") : null,
      "aria-label": f.label,
      title: f.label,
      "aria-disabled": f.inert ? "true" : null,
    },
    [
      h("span", { class: "blb-flag-n", "aria-hidden": "true", text: f.owner ? `⚑${f.n}` : String(f.n) }),
      f.mark ? h("span", { class: "blb-flag-mark", "aria-hidden": "true", text: f.mark }) : null,
    ],
  );
  const env = (f.env || []).map((c) => {
    const face = [h("span", { class: "blb-n", "aria-hidden": "true", text: c.name })];
    const chip = c.pick
      ? h("button", { type: "button", class: cardClasses(c, "blb-env blb-pick"), "data-card": c.id, "data-zone": "board", "data-flag": f.n, "data-action": "evidence", "data-nav": "evidence", "data-key": `evidence:${c.id}`, "aria-label": c.label, title: c.label }, face)
      : h("div", { class: cardClasses(c, "blb-env"), role: "img", "data-card": c.id, "data-zone": "board", "data-flag": f.n, "aria-label": c.label, title: c.label }, face);
    paint(chip, c);
    return chip;
  });
  const first = f.first ? h("span", { class: `blb-first blb-first-${f.first}`, title: f.first_label || "", text: f.first_text || "1st" }) : null;
  return h("div", { class: "blb-flagcell" }, [button, ...env, first, oddsBadge(f)]);
}

function drawColumns(v, css) {
  const board = h("div", { class: "blb-board", role: "group", "aria-label": v.board_label || "board" });
  for (const f of v.flags || []) {
    const col = h("div", { class: `blb-col${f.focus ? " blb-focus" : ""}`, "data-col": f.n }, [drawSide(v, f, "opponent"), drawFlag(f), drawSide(v, f, "you")]);
    if (css) also(col.querySelector(".blb-flag"), f.css);
    board.append(col);
  }
  return board;
}

function drawButton(item, nav) {
  const attrs = {
    type: "button",
    class: `blb-button${item.primary ? " blb-primary" : ""}${item.state ? ` blb-${item.state}` : ""}`,
    "data-action": item.action,
    "data-value": item.value,
    "data-deck": item.deck,
    "data-key": `${item.action}:${item.deck || item.value || ""}`,
    "data-nav": nav,
    "aria-disabled": item.enabled === false ? "true" : null,
    "aria-pressed": item.pressed === undefined ? null : item.pressed ? "true" : "false",
    "aria-label": item.aria || null,
    title: item.title || null,
  };
  return h("button", attrs, [h("span", { text: item.label })]);
}

function drawHandCard(card) {
  const enabled = Boolean(card.flags) || Boolean(card.kernel);
  const el = h(
    "button",
    {
      type: "button",
      class: cardClasses(card, "blb-hand-card"),
      "data-card": card.id,
      "data-zone": "hand",
      "data-key": `card:${card.id}`,
      "data-nav": "hand",
      "aria-label": card.label,
      title: card.label,
      "aria-disabled": enabled ? null : "true",
      "aria-pressed": "false",
      draggable: card.flags ? "true" : null,
    },
    cardFace(card),
  );
  paint(el, card);
  return el;
}

// the hand to play from, the game's and a play puzzle's: tap a card (or drag it), then a flag
function drawHandRow(v) {
  return h("div", { class: "blb-hand", role: "group", "aria-label": v.hand_label || "hand" }, [
    v.hand_label ? h("div", { class: "blb-caption", text: v.hand_label }) : null,
    h("div", { class: "blb-hand-cards" }, v.hand.map(drawHandCard)),
  ]);
}

function drawMinis(cards, zone) {
  return (cards || []).map((c) => {
    const el = c.pick
      ? h("button", { type: "button", class: cardClasses(c, "blb-mini blb-pick"), "data-card": c.id, "data-zone": zone, "data-action": "evidence", "data-nav": "evidence", "data-key": `evidence:${c.id}`, "aria-label": c.label, title: c.label }, cardFace(c))
      : h("div", { class: cardClasses(c, "blb-mini"), role: "img", "data-card": c.id, "data-zone": zone, "aria-label": c.label, title: c.label }, cardFace(c));
    paint(el, c);
    return el;
  });
}

function drawLines(tag, lines) {
  return lines && lines.length ? h(tag, { class: "blb-lines" }, lines.map((line) => h("li", { text: line }))) : null;
}

// the puzzle widget's own classes (bl-answer-yes, bl-feedback bl-state-right, bl-next, ...) on the
// same elements, beside the hooks: older tests and lessons' styles find them by these
function also(el, css) {
  for (const c of String(css || "").split(/\s+/)) if (c) el.classList.add(c);
  return el;
}

// -- puzzle mode (the puzzle widget and the gym; board-puzzle) -----------------------------------
// The same board, the same hooks; below it, in fixed places: the question, the answers (Yes/No,
// A/B, the kinds; a "which flags" question is answered by tapping the flags, then Check; a play
// question by playing a card of view.hand on a flag, the game's taps, drag and keys), the
// hint button, the proof panel (its height reserved before the answer: nothing moves when the
// puzzle is answered), the feedback, the hints.  Python judges every answer.
function drawHeld(held) {
  const zone = held.side === "you" ? "hand" : "opponent-hand";
  return h("div", { class: "blb-opp-hand blb-held", role: "group", "aria-label": held.label }, [h("span", { class: "blb-caption", text: held.label }), ...drawMinis(held.cards, zone)]);
}

// a claim's evidence stage: its prompt, then the cards off the flags to tap (the discards, or the
// unseen troops for a ghost); the cards on the flags and in the hands are tapped where they lie
function drawEvidence(e) {
  return h("div", { class: `blb-evidence${e.ghost ? " blb-evidence-ghost" : ""}${e.state ? ` blb-${e.state}` : ""}`, "data-role": "evidence", "data-state": e.state || null, role: "group", "aria-label": e.prompt }, [
    h("div", { class: "blb-evidence-prompt", text: e.prompt }),
    ...(e.rows || []).map((row) =>
      h("div", { class: "blb-row", role: "group", "aria-label": row.caption }, [
        h("div", { class: "blb-row-caption", text: row.caption }),
        h("div", { class: "blb-row-cards" }, drawMinis(row.cards, e.ghost ? "palette-ghost" : "discards")),
      ]),
    ),
  ]);
}

function drawCardRow(row) {
  return h("div", { class: "blb-row", role: "group", "aria-label": row.caption }, [
    h("div", { class: "blb-row-caption", text: row.caption }),
    h("div", { class: "blb-row-cards" }, drawMinis(row.cards, "question")),
  ]);
}

function drawPuzzleProof(v, host) {
  const p = v.proof;
  const steps = p ? p.steps || [] : [];
  const step = h("div", { class: "blb-proof-step bl-step-text", "data-role": "proof-step", "aria-live": "polite", "data-waiting": p ? null : "true" });
  if (p) {
    for (const part of steps[p.index] || []) {
      if (part.href) {
        const label = (p.rule_label || "{rule}").replace("{rule}", part.rule);
        step.append(h("a", { class: "blb-rule", href: ruleHref(part.href, host), "data-href": part.href, target: "_blank", rel: "noopener", title: label, "aria-label": label, text: part.text }));
      } else {
        step.append(document.createTextNode(part.text));
      }
    }
  } else {
    step.append(h("span", { class: "blb-proof-waiting", text: v.proof_waiting || "" }));
  }
  const body = h("div", { class: "blb-proof-body" }, [step, p && p.note ? h("div", { class: "blb-note bl-note", text: p.note }) : null]);
  return h("div", { class: `blb-proof blb-proof-fixed${p ? " bl-explanation" : ""}`, role: "group", "aria-label": v.proof_label || "" }, [
    h("div", { class: "blb-proof-title", text: v.proof_label || "" }),
    h("div", { class: "blb-proof-head" }, [
      also(drawButton({ action: "step-back", label: v.step_back || "◀", enabled: Boolean(p) && p.index > 0, aria: v.step_back_label }, "proof"), "bl-back"),
      h("span", { class: "blb-step-counter bl-step-counter", text: p ? p.counter || "" : "" }),
      also(drawButton({ action: "step-next", label: v.step_next || "▶", enabled: Boolean(p) && p.index < steps.length - 1, aria: v.step_next_label }, "proof"), "bl-next"),
    ]),
    body,
  ]);
}

function drawPuzzle(v, host) {
  const parts = [];
  const view = h("div", { class: "blb-board-view bl-board-view" }); // the table and both hands
  for (const held of v.held || []) if (held.side !== "you") view.append(drawHeld(held));
  if (v.flags && v.flags.length) view.append(drawColumns(v, true));
  for (const held of v.held || []) if (held.side === "you") view.append(drawHeld(held));
  if (v.hand) view.append(drawHandRow(v)); // a play puzzle: the cards to play, as in the game
  for (const c of view.querySelectorAll(".blb-card")) c.classList.add("bl-card");
  for (const c of view.querySelectorAll(".blb-ghost")) c.classList.add("bl-ghost");
  for (const c of view.querySelectorAll(".blb-highlight")) c.classList.add("bl-highlight");
  if (view.childElementCount) parts.push(view);
  if (v.rows && v.rows.length) parts.push(h("div", { class: "blb-rows" }, v.rows.map(drawCardRow)));
  if (v.environment) parts.push(h("div", { class: "blb-environment-note", text: v.environment }));
  if (v.question) parts.push(h("div", { class: "blb-question bl-question", "data-role": "question", text: v.question }));
  const row = h("div", { class: "blb-answers", role: "group", "aria-label": v.answers_label || "" });
  for (const a of v.answers || []) {
    const button = also(drawButton({ ...a, action: a.action || "answer" }, a.hidden ? null : "choices"), a.css);
    if (a.hidden) button.style.visibility = "hidden"; // its place is kept: nothing moves when it is offered
    row.append(button);
  }
  if (v.hint) {
    const hint = also(drawButton({ ...v.hint, action: "hint", state: "hint" }, "choices"), "bl-hint");
    if (v.hint.hidden) hint.style.visibility = "hidden"; // it keeps its place: nothing moves
    row.append(hint);
  }
  parts.push(row);
  parts.push(drawPuzzleProof(v, host));
  const fb = v.feedback || {};
  parts.push(
    h("div", { class: `blb-feedback blb-tone-${fb.tone || "none"} bl-feedback bl-state-${fb.state || "waiting"}`, "data-role": "feedback", "data-state": fb.state || null, role: "status", "aria-live": "polite" }, [
      fb.text ? h("div", { class: "blb-feedback-text", text: fb.text }) : null,
      drawLines("ul", fb.items),
    ]),
  );
  if (v.evidence) parts.push(drawEvidence(v.evidence)); // below the feedback: nothing above it moves when it opens
  const ol = h("ol", { class: "blb-hint-list", "aria-live": "polite" }, (v.hints || []).map((line) => h("li", { text: line })));
  parts.push(h("div", { class: "blb-hints bl-hints" }, [ol]));
  parts.push(h("div", { class: "blb-sr", "aria-live": "polite", "data-role": "selection" }));
  return parts;
}

// -- game mode (the game, the explorer and the editor's place mode) ------------------------------
function drawGame(v) {
  const parts = [];
  if (v.prompt || v.status) {
    parts.push(
      h("div", { class: "blb-top" }, [
        v.prompt ? h("div", { class: "blb-prompt", "data-role": "prompt", text: v.prompt }) : null,
        v.status ? h("div", { class: "blb-status", text: v.status }) : null,
      ]),
    );
  }
  if (v.opponent_hand) {
    const oh = v.opponent_hand;
    parts.push(h("div", { class: "blb-opp-hand", role: "group", "aria-label": oh.label }, [h("span", { class: "blb-caption", text: oh.label }), ...drawMinis(oh.cards, "opponent-hand")]));
  }
  parts.push(drawColumns(v, false));
  if (v.places) parts.push(placesRow(v));
  if (v.palette) parts.push(paletteRow(v.palette));
  if (v.odds_note) parts.push(h("div", { class: "blb-odds-note", "data-role": "odds-note", text: v.odds_note }));
  if (v.question) parts.push(h("div", { class: "blb-question", text: v.question }));
  const bar = h("div", { class: "blb-bar" });
  for (const d of v.decks || []) bar.append(drawButton({ ...d, action: "draw" }, "choices"));
  for (const c of v.choices || []) bar.append(drawButton(c, "choices"));
  if (bar.childElementCount) parts.push(bar);
  if (v.hand) parts.push(drawHandRow(v));
  if (v.answers) {
    parts.push(h("div", { class: "blb-answers", role: "group", "aria-label": v.answers_label || "" }, v.answers.map((a) => drawButton({ ...a, action: a.action || "answer" }, "choices"))));
  }
  const fb = v.feedback || {};
  parts.push(
    h("div", { class: `blb-feedback blb-tone-${fb.tone || "none"}`, "data-role": "feedback", role: "status", "aria-live": "polite" }, [
      fb.text ? h("div", { class: "blb-feedback-text", text: fb.text }) : null,
      drawLines("ol", fb.lines),
      drawLines("ul", fb.items),
    ]),
  );
  if (v.hints) {
    parts.push(
      h("div", { class: "blb-hints" }, [
        v.hint ? drawButton({ ...v.hint, action: "hint" }, "choices") : null,
        h("ol", { class: "blb-hint-list", "aria-live": "polite" }, v.hints.map((line) => h("li", { text: line }))),
      ]),
    );
  }
  if (v.proof) {
    const p = v.proof;
    parts.push(
      h("div", { class: "blb-proof", role: "group", "aria-label": p.label || "" }, [
        h("div", { class: "blb-proof-head" }, [
          drawButton({ action: "step-back", label: p.back || "◀", enabled: p.index > 0, aria: p.back_label }, "proof"),
          h("span", { class: "blb-step-counter", text: p.counter || "" }),
          drawButton({ action: "step-next", label: p.next || "▶", enabled: p.index < (p.steps || []).length - 1, aria: p.next_label }, "proof"),
        ]),
        h("div", { class: "blb-proof-step", "data-role": "proof-step", "aria-live": "polite", text: (p.steps || [])[p.index] || "" }),
        p.note ? h("div", { class: "blb-note", text: p.note }) : null,
      ]),
    );
  }
  parts.push(h("div", { class: "blb-sr", "aria-live": "polite", "data-role": "selection" }));
  return parts;
}

// -- three-player mode (the three-player game, R32-R37) ------------------------------------------
// The three fronts stacked (side by side in a wide cell), each with its label naming its two
// players; a flag is a column (data-col, as in the game mode: the same taps, drops and lit flags)
// with the top player's side, the flag (drawFlag) and the bottom player's side (the learner's,
// on the learner's fronts).  The first card of a side is next to the flag (R6).
function drawThreeSide(v, f, side, where) {
  const out = h("div", { class: `blb-side blb-seat blb-seat-${side.seat} blb-seat-${where}${side.you ? " blb-mine" : ""}`, role: "group", "aria-label": side.label, "data-seat": side.seat });
  const cards = side.cards || [];
  cards.forEach((c, i) => out.append(drawBoardCard(v, c, f, side.seat, i + 1)));
  for (let i = cards.length; i < Number(f.slots || 3); i += 1) out.append(h("div", { class: "blb-slot", "aria-hidden": "true" }));
  return out;
}

function drawFront(v, front) {
  const cols = (front.flags || []).map((n) => flagOf(v, n)).filter(Boolean).map((f) => {
    const [top, bottom] = f.sides || [];
    return h("div", { class: "blb-col blb-tcol", "data-col": f.n }, [top ? drawThreeSide(v, f, top, "top") : null, drawFlag(f), bottom ? drawThreeSide(v, f, bottom, "bottom") : null]);
  });
  return h("div", { class: `blb-front${front.yours ? " blb-front-yours" : ""}`, "data-front": front.key, role: "group", "aria-label": front.label }, [
    h("div", { class: "blb-front-label", "aria-hidden": "true", text: front.label }),
    h("div", { class: "blb-front-flags" }, cols),
  ]);
}

function drawThreePlayers(v) {
  return h("div", { class: "blb-players" }, (v.players || []).map((p) =>
    h("span", { class: `blb-player blb-seat-${p.seat}${p.you ? " blb-mine" : ""}${p.turn ? " blb-turn" : ""}`, "data-seat": p.seat, text: p.label }),
  ));
}

function drawThree(v) {
  const fb = v.feedback || {};
  const bar = h("div", { class: "blb-bar" });
  for (const d of v.decks || []) bar.append(drawButton({ ...d, action: "draw" }, "choices"));
  for (const c of v.choices || []) bar.append(drawButton(c, "choices"));
  return [
    h("div", { class: "blb-top" }, [
      h("div", { class: "blb-prompt", "data-role": "prompt", text: v.prompt || "" }),
      v.status ? h("div", { class: "blb-status", text: v.status }) : null,
    ]),
    drawThreePlayers(v),
    h("div", { class: "blb-three-board", role: "group", "aria-label": v.board_label || "board" }, (v.fronts || []).map((front) => drawFront(v, front))),
    bar,
    h("div", { class: "blb-hand", role: "group", "aria-label": v.hand_label || "hand" }, [
      v.hand_label ? h("div", { class: "blb-caption", text: v.hand_label }) : null,
      h("div", { class: "blb-hand-cards" }, (v.hand || []).map(drawHandCard)),
    ]),
    h("div", { class: `blb-feedback blb-tone-${fb.tone || "none"}`, "data-role": "feedback", role: "status", "aria-live": "polite" }, [
      fb.text ? h("div", { class: "blb-feedback-text", text: fb.text }) : null,
      drawLines("ul", fb.items),
    ]),
    h("div", { class: "blb-sr", "aria-live": "polite", "data-role": "selection" }),
  ];
}

// -- drawing: what depends on the browser's own state (in place) ------------------------------------

// roving tabindex: one stop per group (hand, flags, targets, choices, proof)
function drawRoving(root, s) {
  const groups = {};
  for (const item of root.querySelectorAll("[data-nav]")) (groups[item.dataset.nav] ||= []).push(item);
  for (const [group, items] of Object.entries(groups)) {
    const wanted = s.roving[group];
    const stop = items.find((i) => i.dataset.key === wanted) || items.find((i) => i.getAttribute("aria-disabled") !== "true") || items[0];
    for (const i of items) i.tabIndex = i === stop ? 0 : -1;
  }
}

function setFlag(el, name, on) {
  if (on) el.dataset[name] = "true";
  else delete el.dataset[name];
}

// what the tapped (or picked) card lights: its flags, aria-pressed, the places, the words said
function drawSelection(root, s) {
  const v = s.view;
  const { sel, pick } = s.taps;
  const legal = legalFlags(v, s.taps);
  for (const col of root.querySelectorAll(".blb-col")) {
    const ok = legal.includes(Number(col.dataset.col));
    setFlag(col.querySelector(".blb-flag"), "legal", ok);
    setFlag(col, "legal", ok);
  }
  for (const b of root.querySelectorAll('button[data-zone="hand"]')) {
    const c = handCard(v, b.dataset.card);
    b.setAttribute("aria-pressed", b.dataset.card === sel || (c && c.chosen) ? "true" : "false");
  }
  for (const slot of root.querySelectorAll('[data-action="place"]')) {
    setFlag(slot, "legal", Boolean(pick));
    slot.setAttribute("aria-disabled", pick ? "false" : "true");
  }
  for (const b of root.querySelectorAll('[data-zone="palette"]')) b.setAttribute("aria-pressed", b.dataset.card === pick ? "true" : "false");
  root.dataset.selected = sel || pick || "";
  // the prompt says what the tapped card may do (drawn here: no round trip), and is announced
  const c = sel ? handCard(v, sel) : null;
  const picked = pick ? ((v.palette || {}).cards || []).find((p) => p.id === pick) : null;
  let said = c && v.chosen_text ? v.chosen_text.replace("{card}", c.label).replace("{flags}", c.flags.join(", ")) : "";
  if (picked && v.pick_text) said = v.pick_text.replace("{card}", picked.label);
  const live = root.querySelector(".blb-sr");
  if (live) live.textContent = said;
  const prompt = root.querySelector(".blb-prompt");
  if (prompt) prompt.textContent = said || v.prompt || "";
}

/** Draw `s.view` into `root`, in place; the focus stays on its element, or in its group if that went. */
export function draw(root, s, host) {
  const v = s.view;
  const active = root.ownerDocument.activeElement;
  const hadFocus = root.contains(active) && active !== root;
  const nav = hadFocus ? active.dataset.nav : null;
  s.taps = keep(v, s.taps);
  const drawMode = v.mode === "puzzle" ? () => drawPuzzle(v, host) : v.mode === "three" ? () => drawThree(v) : () => drawGame(v);
  patch(root, drawMode().filter(Boolean));
  root.dataset.mode = v.mode || "game";
  root.dataset.rev = String(v.rev || 0);
  delete root.dataset.busy;
  drawRoving(root, s);
  drawSelection(root, s);
  if (hadFocus && !root.contains(root.ownerDocument.activeElement)) {
    // the focused element went (a card played): the same group's stop, else the first stop
    const again =
      (nav && root.querySelector(`[data-nav="${CSS.escape(nav)}"][tabindex="0"]`)) || root.querySelector('[data-nav][tabindex="0"]') || root;
    again.focus({ preventScroll: true });
  }
}

// -- events ----------------------------------------------------------------------------------------

/** The hit a tap on `t` (an element with data-key) is, or null (aria-disabled: nothing happens). */
export function hitOf(t) {
  const d = t.dataset;
  if (d.action === "place") return { place: d.place }; // an empty slot: aria-disabled until a card is picked
  if (t.getAttribute("aria-disabled") === "true") return null;
  if (d.action === "evidence") return { evidence: d.card };
  if (d.zone === "palette") return { palette: d.card };
  if (d.action === "take") return { take: d.card };
  if (d.zone === "hand") return { hand: d.card };
  if (t.classList.contains("blb-flag")) return { flag: Number(d.flag) };
  if (d.action === "target") return { target: d.card };
  if (d.action) return { button: d.action, value: d.value !== undefined ? d.value : d.deck };
  return null;
}

// arrows: Right/Left within a group (Home, End), Down/Up between groups
function move(root, t, delta, across) {
  const groups = [];
  const items = {};
  for (const i of root.querySelectorAll("[data-nav]")) {
    const g = i.dataset.nav;
    if (!items[g]) {
      items[g] = [];
      groups.push(g);
    }
    items[g].push(i);
  }
  let next = null;
  if (across || !t.dataset.nav) {
    const here = t.dataset.nav ? groups.indexOf(t.dataset.nav) : -1;
    const g = groups[(here + delta + groups.length) % groups.length];
    if (g) next = items[g].find((i) => i.tabIndex === 0) || items[g][0];
  } else {
    const list = items[t.dataset.nav];
    const k = list.indexOf(t);
    if (delta === "home") next = list[0];
    else if (delta === "end") next = list[list.length - 1];
    else next = list[(k + delta + list.length) % list.length];
  }
  if (next) next.focus();
  return true;
}

const ARROWS = { ArrowRight: [1, false], ArrowLeft: [-1, false], ArrowDown: [1, true], ArrowUp: [-1, true] };

/**
 * Draw the board for one view of the widget: returns the cleanup that removes every listener.
 * @param {{model: {get: Function, send: Function, on: Function, off: Function}, el: HTMLElement}} ctx
 */
function render({ model, el }) {
  const root = h("div", { class: "blb", tabindex: "-1" });
  el.classList.add("blb-host");
  el.append(root);
  /** the one state object of this board */
  const s = { view: {}, taps: { sel: null, pick: null }, roving: {} };
  // the response table (null until inflated), its state on show, and whether a kernel answered the ping
  const offline = { table: null, state: -1, live: false };
  const storage = storageOf(window);
  const starting = () => {
    // no kernel yet and no answer in the table: say so (drawn until the next view)
    let line = root.querySelector('[data-role="starting"]');
    if (!line) {
      line = h("div", { class: "blb-starting", "data-role": "starting", role: "status", "aria-live": "polite" });
      root.append(line);
    }
    line.textContent = s.view.starting || "…";
  };
  const answer = (intent) => {
    const next = offline.live ? undefined : lookup(offline.table, offline.state, intent);
    if (next === undefined) return false;
    offline.state = next;
    s.view = { ...tableView(offline.table, next), rev: s.view.rev };
    draw(root, s, el);
    enqueue(storage, offline.table.puzzle, intent);
    return true;
  };
  const send = (intent) => {
    if (answer(intent)) return;
    root.dataset.busy = "true";
    model.send({ intent });
    if (!offline.live) starting();
  };
  const redraw = () => {
    s.view = model.get("view") || {};
    draw(root, s, el);
  };
  const replay = () => {
    const q = offline.table ? queued(storage, offline.table.puzzle) : null;
    if (q && q.intents.length) model.send({ replay: q });
  };
  const onMessage = (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.pong && !offline.live) {
      offline.live = true;
      replay();
    }
    if (typeof msg.replayed === "string" && offline.table) forget(storage, offline.table.puzzle, msg.replayed);
  };
  const onState = () => {
    const state = model.get("table_state");
    if (typeof state === "number") offline.state = state;
  };
  const text = model.get("table");
  if (text) {
    unpackTable(text).then((table) => {
      offline.table = table;
      root.dataset.table = "ready";
      onState();
      if (offline.live) return replay();
      // taps answered before (this page reloaded): their views again, from the table
      const q = queued(storage, table.puzzle);
      const at = q && offline.state >= 0 ? walk(table, offline.state, q.intents) : offline.state;
      if (at !== offline.state) {
        offline.state = at;
        s.view = { ...tableView(table, at), rev: s.view.rev };
        draw(root, s, el);
      }
    }, () => {});
  }
  // run the tap state machine; true if the hit was taken (not refused)
  const act = (hit) => {
    const out = tap(s.view, s.taps, hit);
    s.taps = out.state;
    drawSelection(root, s);
    if (out.intent) send(out.intent);
    return !out.refused;
  };
  const inside = (node) => node && root.contains(node);

  function onKey(e) {
    const t = e.target;
    const key = e.key;
    if (key === "Escape" || key === "j" || key === "k") {
      if (key !== "Escape" && !s.view.proof) return false;
      return act({ key }) || key === "Escape";
    }
    if (s.view.proof && t.dataset && t.dataset.nav === "proof" && (key === "ArrowRight" || key === "ArrowLeft")) {
      send({ step: key === "ArrowRight" ? 1 : -1 });
      return true;
    }
    if (key === "Enter" || key === " ") {
      const item = t.closest && t.closest("[data-key]");
      if (!inside(item)) return false;
      const hit = hitOf(item);
      if (hit) act(hit);
      return true;
    }
    if (ARROWS[key]) return move(root, t, ...ARROWS[key]);
    if ((key === "Home" || key === "End") && t.dataset && t.dataset.nav) return move(root, t, key.toLowerCase(), false);
    return false;
  }

  const dropFlag = (e) => {
    const col = e.target.closest && e.target.closest(".blb-col");
    const n = col ? Number(col.dataset.col) : null;
    return n !== null && legalFlags(s.view, s.taps).includes(n) && s.taps.sel ? n : null;
  };

  // the one table of handlers: [target, event, handler, capture]
  const handlers = [
    [root, "click", (e) => {
      const rule = e.target.closest && e.target.closest("a.blb-rule");
      if (inside(rule)) {
        rule.href = ruleHref(rule.dataset.href, el); // where the notebook is, now that it is on the page
        return;
      }
      const t = e.target.closest("[data-key]");
      if (inside(t)) {
        const hit = hitOf(t);
        if (hit) act(hit);
        return;
      }
      const col = e.target.closest(".blb-col");
      if (inside(col)) act({ flag: Number(col.dataset.col) });
    }],
    [root, "focusin", (e) => {
      const t = e.target;
      if (t.dataset && t.dataset.nav) {
        s.roving[t.dataset.nav] = t.dataset.key;
        for (const i of root.querySelectorAll(`[data-nav="${CSS.escape(t.dataset.nav)}"]`)) i.tabIndex = i === t ? 0 : -1;
      }
    }],
    // drag a hand card onto a flag (the same as tap card, tap flag)
    [root, "dragstart", (e) => {
      const t = e.target.closest && e.target.closest('[data-zone="hand"]');
      if (!t || !act({ drag: t.dataset.card })) {
        e.preventDefault();
        return;
      }
      e.dataTransfer.setData("text/plain", t.dataset.card);
      e.dataTransfer.effectAllowed = "move";
    }],
    [root, "dragover", (e) => {
      if (dropFlag(e) !== null) {
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
      }
    }],
    [root, "drop", (e) => {
      const n = dropFlag(e);
      if (n === null) return;
      e.preventDefault();
      act({ drop: n });
    }],
    // keys on window in the capture phase: before JupyterLab's own shortcuts (j/k, arrows, Enter
    // move between cells); only for a target inside this board, never in a text field
    [window, "keydown", (e) => {
      const t = e.target;
      if (!t || !t.closest || e.altKey || e.ctrlKey || e.metaKey) return;
      if (t.matches("input, textarea, select, [contenteditable], [contenteditable] *")) return;
      if (t.closest(".blb") !== root) return;
      if (onKey(e)) {
        e.preventDefault();
        e.stopPropagation();
        e.stopImmediatePropagation();
      }
    }, true],
  ];
  for (const [target, type, fn, capture] of handlers) target.addEventListener(type, fn, Boolean(capture));
  model.on("change:view", redraw);
  model.on("change:table_state", onState);
  model.on("msg:custom", onMessage);
  redraw();
  model.send({ ping: true });
  return () => {
    model.off("change:view", redraw);
    model.off("change:table_state", onState);
    model.off("msg:custom", onMessage);
    for (const [target, type, fn, capture] of handlers) target.removeEventListener(type, fn, Boolean(capture));
  };
}

export default { render };
