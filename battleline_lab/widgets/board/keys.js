// j (next) and k (back) step the proof of the puzzle this widget sits in, with the focus anywhere
// in that puzzle (never in a text field: typing is not taken over).  One listener per widget
// view, on window in the capture phase, so it runs before JupyterLab's own j/k (next/previous
// cell).  It only tells the kernel which way to step (the session decides, as for a click);
// it acts only while a proof is shown (the synced trait "active").  No HTML runs any script.
function render({ model, el }) {
  el.classList.add("bl-step-keys");
  el.setAttribute("aria-hidden", "true");
  const onKey = (e) => {
    const k = e.key;
    const t = e.target;
    if ((k !== "j" && k !== "k") || e.ctrlKey || e.metaKey || e.altKey || !t || !t.closest) return;
    if (t.isContentEditable || t.closest("input,textarea,select,[contenteditable]")) return;
    const puzzle = el.closest(".bl-puzzle");
    if (!puzzle || !puzzle.contains(t) || !model.get("active")) return;
    e.preventDefault();
    e.stopPropagation();
    model.send({ intent: { step: k === "j" ? 1 : -1 } });
  };
  window.addEventListener("keydown", onKey, true);
  return () => window.removeEventListener("keydown", onKey, true);
}

export default { render };
