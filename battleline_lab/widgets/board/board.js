// battleline_lab's board component (anywidget front end): draws a view model, sends intents back.
//
// The Python side (battleline_lab/board/__init__.py) sets the synced trait `view`: a JSON
// description of what to draw (cards per flag and side, the hand, what may be tapped, the legal
// flags of each hand card, claimable flags, highlights, ghosts, every text already in the
// learner's language).  This module draws it and sends intents ({"play": ["r7", 3]},
// {"claim": 5}, {"draw": "troops"}, {"answer": "yes"}, {"step": 1}, ...) with model.send.
// Selection, hover, focus and highlighting live here; rules never do: which flags a card may
// go to comes in the view model, and Python decides what an intent does.
//
// Stable hooks (a contract for tests): data-card, data-zone, data-flag, data-legal,
// data-claimable, data-action (+ data-deck / data-value), data-role="feedback" and
// data-role="proof-step".  No inline event handler attribute and no <script> is ever written:
// listeners are added with addEventListener; texts are set with textContent.

const KEYS = "__battlelineBoardKeys";

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
// .../lab/index.html?path=<file>), opened in a new tab; anything else is left as it is.
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

function render({ model, el }) {
  const root = h("div", { class: "blb", tabindex: "-1" });
  el.classList.add("blb-host");
  el.append(root);
  const ui = { sel: null, pick: null, roving: {}, view: {} };
  const send = (intent) => {
    root.dataset.busy = "true";
    model.send({ intent });
  };
  const handCard = (id) => (ui.view.hand || []).find((c) => c.id === id);
  const flagOf = (n) => (ui.view.flags || []).find((f) => f.n === n);
  const legalFor = (id) => {
    const c = id ? handCard(id) : null;
    return c && c.flags ? c.flags : [];
  };

  // -- drawing -------------------------------------------------------------------------------
  function boardCard(card, f, side, slot) {
    const target = (ui.view.targets || []).includes(card.id) && !card.ghost;
    const take = Boolean(ui.view.place_mode) && !card.ghost && !target;
    const attrs = {
      class: cardClasses(card, target ? "blb-target" : ""),
      "data-card": card.id,
      "data-zone": card.ghost ? "ghost" : "board",
      "data-flag": f.n,
      "data-side": side,
      "aria-label": card.label,
      title: card.label,
      "data-slot": ui.view.place_mode ? slot : null,
    };
    let el;
    if (take) {
      el = h("button", { ...attrs, type: "button", "data-action": "take", "data-nav": "slots", "data-key": `take:${card.id}:${f.n}:${side}` }, cardFace(card));
    } else if (target) {
      el = h("button", { ...attrs, type: "button", "data-action": "target", "data-nav": "targets", "data-key": `target:${card.id}` }, cardFace(card));
    } else {
      el = h("div", { ...attrs, role: "img" }, cardFace(card));
    }
    paint(el, card);
    return el;
  }

  function side(f, who) {
    const cards = f[who] || [];
    const ghosts = who === "opponent" ? f.ghosts || [] : [];
    const slots = Math.max(f.slots || 3, cards.length + ghosts.length);
    const out = h("div", { class: `blb-side blb-${who}`, role: "group", "aria-label": f[`${who}_label`] || who });
    cards.forEach((c, i) => out.append(boardCard(c, f, who, i + 1)));
    for (const c of ghosts) out.append(boardCard({ ...c, ghost: true }, f, who));
    for (let i = cards.length + ghosts.length; i < slots; i += 1) {
      out.append(ui.view.place_mode ? slotTarget(ui.view, f, who, i) : h("div", { class: "blb-slot", "aria-hidden": "true" }));
    }
    return out;
  }

  function flagCell(f) {
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
      const chip = h("div", { class: cardClasses(c, "blb-env"), role: "img", "data-card": c.id, "data-zone": "board", "data-flag": f.n, "aria-label": c.label, title: c.label }, [
        h("span", { class: "blb-n", "aria-hidden": "true", text: c.name }),
      ]);
      paint(chip, c);
      return chip;
    });
    const first = f.first ? h("span", { class: `blb-first blb-first-${f.first}`, title: f.first_label || "", text: f.first_text || "1st" }) : null;
    return h("div", { class: "blb-flagcell" }, [button, ...env, first, oddsBadge(f)]);
  }

  function buttonFor(item, nav) {
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

  function handButton(card) {
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

  // -- puzzle mode (the puzzle widget and the gym; board-puzzle) ---------------------------------
  // The same board, the same hooks; below it, in fixed places: the question, the answers (Yes/No,
  // A/B, the kinds; a "which flags" question is answered by tapping the flags, then Check), the
  // hint button, the proof panel (its height reserved before the answer: nothing moves when the
  // puzzle is answered), the feedback, the hints.  Python judges every answer.
  function heldRow(held) {
    const row = h("div", { class: "blb-opp-hand blb-held", role: "group", "aria-label": held.label }, [h("span", { class: "blb-caption", text: held.label })]);
    for (const c of held.cards || []) {
      const zone = held.side === "you" ? "hand" : "opponent-hand";
      const el = h("div", { class: cardClasses(c, "blb-mini"), role: "img", "data-card": c.id, "data-zone": zone, "aria-label": c.label, title: c.label }, cardFace(c));
      paint(el, c);
      row.append(el);
    }
    return row;
  }

  function cardRow(row) {
    const cards = h("div", { class: "blb-row-cards" });
    for (const c of row.cards || []) {
      const el = h("div", { class: cardClasses(c, "blb-mini"), role: "img", "data-card": c.id, "data-zone": "question", "aria-label": c.label, title: c.label }, cardFace(c));
      paint(el, c);
      cards.append(el);
    }
    return h("div", { class: "blb-row", role: "group", "aria-label": row.caption }, [h("div", { class: "blb-row-caption", text: row.caption }), cards]);
  }

  // the puzzle widget's own classes (bl-answer-yes, bl-feedback bl-state-right, bl-next, ...) on the
  // same elements, beside the hooks: older tests and lessons' styles find them by these
  const also = (el, css) => {
    for (const c of String(css || "").split(/\s+/)) if (c) el.classList.add(c);
    return el;
  };

  function puzzleProof(v) {
    const p = v.proof;
    const steps = p ? p.steps || [] : [];
    const step = h("div", { class: "blb-proof-step bl-step-text", "data-role": "proof-step", "aria-live": "polite", "data-waiting": p ? null : "true" });
    if (p) {
      for (const part of steps[p.index] || []) {
        if (part.href) {
          const label = (p.rule_label || "{rule}").replace("{rule}", part.rule);
          step.append(h("a", { class: "blb-rule", href: ruleHref(part.href, el), "data-href": part.href, target: "_blank", rel: "noopener", title: label, "aria-label": label, text: part.text }));
        } else {
          step.append(document.createTextNode(part.text));
        }
      }
    } else {
      step.append(h("span", { class: "blb-proof-waiting", text: v.proof_waiting || "" }));
    }
    const body = h("div", { class: "blb-proof-body" }, [step, p && p.note ? h("div", { class: "blb-note bl-note", text: p.note }) : null]);
    const panel = h("div", { class: `blb-proof blb-proof-fixed${p ? " bl-explanation" : ""}`, role: "group", "aria-label": v.proof_label || "" }, [
      h("div", { class: "blb-proof-title", text: v.proof_label || "" }),
      h("div", { class: "blb-proof-head" }, [
        also(buttonFor({ action: "step-back", label: v.step_back || "◀", enabled: Boolean(p) && p.index > 0, aria: v.step_back_label }, "proof"), "bl-back"),
        h("span", { class: "blb-step-counter bl-step-counter", text: p ? p.counter || "" : "" }),
        also(buttonFor({ action: "step-next", label: v.step_next || "▶", enabled: Boolean(p) && p.index < steps.length - 1, aria: v.step_next_label }, "proof"), "bl-next"),
      ]),
      body,
    ]);
    return panel;
  }

  function buildPuzzle(v) {
    const parts = [];
    const view = h("div", { class: "blb-board-view bl-board-view" }); // the table and both hands
    for (const held of v.held || []) if (held.side !== "you") view.append(heldRow(held));
    if (v.flags && v.flags.length) {
      const board = h("div", { class: "blb-board", role: "group", "aria-label": v.board_label || "board" });
      for (const f of v.flags) {
        const col = h("div", { class: `blb-col${f.focus ? " blb-focus" : ""}`, "data-col": f.n }, [side(f, "opponent"), flagCell(f), side(f, "you")]);
        also(col.querySelector(".blb-flag"), f.css);
        board.append(col);
      }
      view.append(board);
    }
    for (const held of v.held || []) if (held.side === "you") view.append(heldRow(held));
    for (const c of view.querySelectorAll(".blb-card")) c.classList.add("bl-card");
    for (const c of view.querySelectorAll(".blb-ghost")) c.classList.add("bl-ghost");
    for (const c of view.querySelectorAll(".blb-highlight")) c.classList.add("bl-highlight");
    if (view.childElementCount) parts.push(view);
    if (v.rows && v.rows.length) parts.push(h("div", { class: "blb-rows" }, v.rows.map(cardRow)));
    if (v.environment) parts.push(h("div", { class: "blb-environment-note", text: v.environment }));
    if (v.question) parts.push(h("div", { class: "blb-question bl-question", "data-role": "question", text: v.question }));
    const row = h("div", { class: "blb-answers", role: "group", "aria-label": v.answers_label || "" });
    for (const a of v.answers || []) row.append(also(buttonFor({ ...a, action: a.action || "answer" }, "choices"), a.css));
    if (v.hint) {
      const hint = also(buttonFor({ ...v.hint, action: "hint", state: "hint" }, "choices"), "bl-hint");
      if (v.hint.hidden) hint.style.visibility = "hidden"; // it keeps its place: nothing moves
      row.append(hint);
    }
    parts.push(row);
    parts.push(puzzleProof(v));
    const fb = v.feedback || {};
    const feedback = h("div", { class: `blb-feedback blb-tone-${fb.tone || "none"} bl-feedback bl-state-${fb.state || "waiting"}`, "data-role": "feedback", "data-state": fb.state || null, role: "status", "aria-live": "polite" }, [
      fb.text ? h("div", { class: "blb-feedback-text", text: fb.text }) : null,
    ]);
    if (fb.items && fb.items.length) {
      const ul = h("ul", { class: "blb-lines" });
      for (const line of fb.items) ul.append(h("li", { text: line }));
      feedback.append(ul);
    }
    parts.push(feedback);
    const ol = h("ol", { class: "blb-hint-list", "aria-live": "polite" });
    for (const line of v.hints || []) ol.append(h("li", { text: line }));
    parts.push(h("div", { class: "blb-hints bl-hints" }, [ol]));
    parts.push(h("div", { class: "blb-sr", "aria-live": "polite", "data-role": "selection" }));
    return parts;
  }

  function build(v) {
    if (v.mode === "puzzle") return buildPuzzle(v);
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
      const row = h("div", { class: "blb-opp-hand", role: "group", "aria-label": oh.label }, [h("span", { class: "blb-caption", text: oh.label })]);
      for (const c of oh.cards || []) {
        const el = h("div", { class: cardClasses(c, "blb-mini"), role: "img", "data-card": c.id, "data-zone": "opponent-hand", "aria-label": c.label, title: c.label }, cardFace(c));
        paint(el, c);
        row.append(el);
      }
      parts.push(row);
    }
    const board = h("div", { class: "blb-board", role: "group", "aria-label": v.board_label || "board" });
    for (const f of v.flags || []) {
      const col = h("div", { class: `blb-col${f.focus ? " blb-focus" : ""}`, "data-col": f.n }, [side(f, "opponent"), flagCell(f), side(f, "you")]);
      board.append(col);
    }
    parts.push(board);
    if (v.places) parts.push(placesRow(v));
    if (v.palette) parts.push(paletteRow(v.palette));
    if (v.odds_note) parts.push(h("div", { class: "blb-odds-note", "data-role": "odds-note", text: v.odds_note }));
    if (v.question) parts.push(h("div", { class: "blb-question", text: v.question }));
    const bar = h("div", { class: "blb-bar" });
    for (const d of v.decks || []) bar.append(buttonFor({ ...d, action: "draw" }, "choices"));
    for (const c of v.choices || []) bar.append(buttonFor(c, "choices"));
    if (bar.childElementCount) parts.push(bar);
    if (v.hand) {
      const hand = h("div", { class: "blb-hand", role: "group", "aria-label": v.hand_label || "hand" });
      if (v.hand_label) hand.append(h("div", { class: "blb-caption", text: v.hand_label }));
      const cards = h("div", { class: "blb-hand-cards" });
      for (const c of v.hand) cards.append(handButton(c));
      hand.append(cards);
      parts.push(hand);
    }
    if (v.answers) {
      const row = h("div", { class: "blb-answers", role: "group", "aria-label": v.answers_label || "" });
      for (const a of v.answers) row.append(buttonFor({ ...a, action: a.action || "answer" }, "choices"));
      parts.push(row);
    }
    const fb = v.feedback || {};
    const feedback = h("div", { class: `blb-feedback blb-tone-${fb.tone || "none"}`, "data-role": "feedback", role: "status", "aria-live": "polite" }, [
      fb.text ? h("div", { class: "blb-feedback-text", text: fb.text }) : null,
    ]);
    if (fb.lines && fb.lines.length) {
      const ol = h("ol", { class: "blb-lines" });
      for (const line of fb.lines) ol.append(h("li", { text: line }));
      feedback.append(ol);
    }
    if (fb.items && fb.items.length) {
      const ul = h("ul", { class: "blb-lines" });
      for (const line of fb.items) ul.append(h("li", { text: line }));
      feedback.append(ul);
    }
    parts.push(feedback);
    if (v.hints) {
      const hints = h("div", { class: "blb-hints" });
      if (v.hint) hints.append(buttonFor({ ...v.hint, action: "hint" }, "choices"));
      const ol = h("ol", { class: "blb-hint-list", "aria-live": "polite" });
      for (const line of v.hints) ol.append(h("li", { text: line }));
      hints.append(ol);
      parts.push(hints);
    }
    if (v.proof) {
      const p = v.proof;
      const proof = h("div", { class: "blb-proof", role: "group", "aria-label": p.label || "" }, [
        h("div", { class: "blb-proof-head" }, [
          buttonFor({ action: "step-back", label: p.back || "◀", enabled: p.index > 0, aria: p.back_label }, "proof"),
          h("span", { class: "blb-step-counter", text: p.counter || "" }),
          buttonFor({ action: "step-next", label: p.next || "▶", enabled: p.index < (p.steps || []).length - 1, aria: p.next_label }, "proof"),
        ]),
        h("div", { class: "blb-proof-step", "data-role": "proof-step", "aria-live": "polite", text: (p.steps || [])[p.index] || "" }),
      ]);
      if (p.note) proof.append(h("div", { class: "blb-note", text: p.note }));
      parts.push(proof);
    }
    parts.push(h("div", { class: "blb-sr", "aria-live": "polite", "data-role": "selection" }));
    return parts;
  }

  // roving tabindex: one stop per group (hand, flags, targets, choices, proof)
  function rove() {
    const groups = {};
    for (const item of root.querySelectorAll("[data-nav]")) (groups[item.dataset.nav] ||= []).push(item);
    for (const [group, items] of Object.entries(groups)) {
      const wanted = ui.roving[group];
      let stop = items.find((i) => i.dataset.key === wanted) || items.find((i) => i.getAttribute("aria-disabled") !== "true") || items[0];
      for (const i of items) i.tabIndex = i === stop ? 0 : -1;
    }
  }

  function applySelection() {
    const legal = ui.sel ? legalFor(ui.sel) : null;
    for (const col of root.querySelectorAll(".blb-col")) {
      const n = Number(col.dataset.col);
      const f = flagOf(n) || {};
      const ok = legal ? legal.includes(n) : Boolean(f.legal);
      const button = col.querySelector(".blb-flag");
      if (ok) {
        button.dataset.legal = "true";
        col.dataset.legal = "true";
      } else {
        delete button.dataset.legal;
        delete col.dataset.legal;
      }
    }
    for (const b of root.querySelectorAll('button[data-zone="hand"]')) {
      const c = handCard(b.dataset.card);
      b.setAttribute("aria-pressed", b.dataset.card === ui.sel || (c && c.chosen) ? "true" : "false");
    }
    for (const s of root.querySelectorAll('[data-action="place"]')) {
      if (ui.pick) s.dataset.legal = "true";
      else delete s.dataset.legal;
      s.setAttribute("aria-disabled", ui.pick ? "false" : "true");
    }
    for (const b of root.querySelectorAll('[data-zone="palette"]')) b.setAttribute("aria-pressed", b.dataset.card === ui.pick ? "true" : "false");
    root.dataset.selected = ui.sel || ui.pick || "";
    // the prompt says what the tapped card may do (drawn here: no round trip), and is announced
    const c = ui.sel ? handCard(ui.sel) : null;
    const picked = ui.pick ? ((ui.view.palette || {}).cards || []).find((p) => p.id === ui.pick) : null;
    let said = c && ui.view.chosen_text ? ui.view.chosen_text.replace("{card}", c.label).replace("{flags}", c.flags.join(", ")) : "";
    if (picked && ui.view.pick_text) said = ui.view.pick_text.replace("{card}", picked.label);
    const live = root.querySelector(".blb-sr");
    if (live) live.textContent = said;
    const prompt = root.querySelector(".blb-prompt");
    if (prompt) prompt.textContent = said || ui.view.prompt || "";
  }

  function draw() {
    const v = model.get("view") || {};
    const active = document.activeElement;
    const hadFocus = root.contains(active);
    const key = hadFocus && active !== root ? active.dataset.key : null;
    const nav = hadFocus && active !== root ? active.dataset.nav : null;
    ui.view = v;
    if (ui.sel && !(handCard(ui.sel) && handCard(ui.sel).flags)) ui.sel = null;
    if (ui.pick && !((v.palette || {}).cards || []).some((p) => p.id === ui.pick)) ui.pick = null;
    root.replaceChildren(...build(v));
    root.dataset.mode = v.mode || "game";
    root.dataset.rev = String(v.rev || 0);
    delete root.dataset.busy;
    rove();
    applySelection();
    if (hadFocus) {
      const again =
        (key && root.querySelector(`[data-key="${CSS.escape(key)}"]`)) ||
        (nav && root.querySelector(`[data-nav="${CSS.escape(nav)}"][tabindex="0"]`)) ||
        root.querySelector('[data-nav][tabindex="0"]') ||
        root;
      again.focus({ preventScroll: true });
    }
  }

  // -- what a tap does -------------------------------------------------------------------------
  function cancel() {
    if (ui.pick) {
      ui.pick = null;
      applySelection();
    } else if (ui.sel) {
      ui.sel = null;
      applySelection();
    } else if (ui.view.selection) {
      send({ cancel: true });
    }
  }

  function tapFlag(n) {
    const f = flagOf(n);
    if (!f || f.inert) return;
    if (f.answer !== undefined && f.answer !== null) {
      send({ answer: String(n) });
      return;
    }
    if (ui.sel) {
      const id = ui.sel;
      ui.sel = null;
      if (legalFor(id).includes(n)) send({ play: [id, n] });
      applySelection(); // a tap on a flag it may not go to cancels
      return;
    }
    if (f.legal || f.choose) send({ flag: n });
    else if (f.claim) send({ claim: n });
  }

  function activate(t) {
    const action = t.dataset.action;
    if (action === "place") {
      const id = ui.pick;
      ui.pick = null;
      if (id) send({ place: [id, t.dataset.place] });
      applySelection();
      return;
    }
    if (t.getAttribute("aria-disabled") === "true") return;
    if (t.dataset.zone === "palette") {
      ui.pick = ui.pick === t.dataset.card ? null : t.dataset.card; // a second tap cancels
      ui.sel = null;
      applySelection();
      return;
    }
    if (action === "take") return send({ take: t.dataset.card });
    if (t.dataset.zone === "hand") {
      const c = handCard(t.dataset.card);
      if (!c) return;
      if (c.flags) {
        ui.sel = ui.sel === c.id ? null : c.id; // a second tap cancels
        applySelection();
      } else if (c.kernel) {
        ui.sel = null;
        send({ select: c.id });
      }
      return;
    }
    if (t.classList.contains("blb-flag") && action !== "answer") return tapFlag(Number(t.dataset.flag));
    if (action === "answer" && t.dataset.flag) return tapFlag(Number(t.dataset.flag));
    if (action === "target") return send({ target: t.dataset.card });
    if (action === "draw") return send({ draw: t.dataset.deck });
    if (action === "cancel") return cancel();
    if (action === "answer") return send({ answer: t.dataset.value });
    if (action === "hint") return send({ hint: true });
    if (action === "step-next") return send({ step: 1 });
    if (action === "step-back") return send({ step: -1 });
    if (action) send({ do: action });
  }

  root.addEventListener("click", (e) => {
    const rule = e.target.closest && e.target.closest("a.blb-rule");
    if (rule && root.contains(rule)) {
      rule.href = ruleHref(rule.dataset.href, el); // where the notebook is, now that it is on the page
      return;
    }
    const t = e.target.closest("[data-key]");
    if (t && root.contains(t)) {
      activate(t);
      return;
    }
    const col = e.target.closest(".blb-col");
    if (col && root.contains(col)) tapFlag(Number(col.dataset.col));
  });
  root.addEventListener("focusin", (e) => {
    const t = e.target;
    if (t.dataset && t.dataset.nav) {
      ui.roving[t.dataset.nav] = t.dataset.key;
      for (const i of root.querySelectorAll(`[data-nav="${CSS.escape(t.dataset.nav)}"]`)) i.tabIndex = i === t ? 0 : -1;
    }
  });

  // drag a hand card onto a flag (the same as tap card, tap flag)
  root.addEventListener("dragstart", (e) => {
    const t = e.target.closest && e.target.closest('[data-zone="hand"]');
    const c = t ? handCard(t.dataset.card) : null;
    if (!c || !c.flags) {
      e.preventDefault();
      return;
    }
    ui.sel = c.id;
    e.dataTransfer.setData("text/plain", c.id);
    e.dataTransfer.effectAllowed = "move";
    applySelection();
  });
  const dropFlag = (e) => {
    const col = e.target.closest && e.target.closest(".blb-col");
    const n = col ? Number(col.dataset.col) : null;
    return n !== null && ui.sel && legalFor(ui.sel).includes(n) ? n : null;
  };
  root.addEventListener("dragover", (e) => {
    if (dropFlag(e) !== null) {
      e.preventDefault();
      e.dataTransfer.dropEffect = "move";
    }
  });
  root.addEventListener("drop", (e) => {
    const n = dropFlag(e);
    if (n === null) return;
    e.preventDefault();
    const id = ui.sel;
    ui.sel = null;
    send({ play: [id, n] });
    applySelection();
  });

  // -- keys ------------------------------------------------------------------------------------
  function move(t, delta, across) {
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

  root._blbKey = (e) => {
    const t = e.target;
    const key = e.key;
    const proof = ui.view.proof;
    if (key === "Escape") {
      cancel();
      return true;
    }
    if (proof && (key === "j" || key === "k")) {
      send({ step: key === "j" ? 1 : -1 });
      return true;
    }
    if (proof && t.dataset && t.dataset.nav === "proof" && (key === "ArrowRight" || key === "ArrowLeft")) {
      send({ step: key === "ArrowRight" ? 1 : -1 });
      return true;
    }
    if (key === "Enter" || key === " ") {
      const item = t.closest && t.closest("[data-key]");
      if (item && root.contains(item)) {
        activate(item);
        return true;
      }
      return false;
    }
    if (key === "ArrowRight") return move(t, 1, false);
    if (key === "ArrowLeft") return move(t, -1, false);
    if (key === "ArrowDown") return move(t, 1, true);
    if (key === "ArrowUp") return move(t, -1, true);
    if (key === "Home" && t.dataset && t.dataset.nav) return move(t, "home", false);
    if (key === "End" && t.dataset && t.dataset.nav) return move(t, "end", false);
    return false;
  };

  model.on("change:view", draw);
  draw();
  return () => model.off("change:view", draw);
}

// One key listener per page, on window in the capture phase: it runs before JupyterLab's own
// shortcuts (j/k, arrows, Enter move between cells) and only acts inside a board.
function onKey(e) {
  const t = e.target;
  if (!t || !t.closest || e.altKey || e.ctrlKey || e.metaKey) return;
  if (t.matches("input, textarea, select, [contenteditable], [contenteditable] *")) return;
  const root = t.closest(".blb");
  if (!root || !root._blbKey) return;
  if (root._blbKey(e)) {
    e.preventDefault();
    e.stopPropagation();
    e.stopImmediatePropagation();
  }
}

if (!window[KEYS]) {
  window.addEventListener("keydown", onKey, true);
  window[KEYS] = true;
}

export default { render };
