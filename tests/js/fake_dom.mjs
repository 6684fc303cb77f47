// A tiny DOM, enough for board.js (no npm dependency): elements with attributes, classes, dataset,
// style, children, text; querySelector(All)/closest/matches for the selectors board.js uses
// (tags, .classes, [attr], [attr="value"], *, descendants, lists); focus; listeners with bubbling.
// innerHTML and insertAdjacentHTML throw: board.js must never parse text as HTML.

const camel = (name) => name.slice(5).replace(/-([a-z])/g, (_m, c) => c.toUpperCase());
const kebab = (key) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

class Node {
  constructor(doc) {
    this.ownerDocument = doc;
    this.parentNode = null;
    this.childNodes = [];
    this.listeners = {};
  }
  get firstChild() {
    return this.childNodes[0] || null;
  }
  get children() {
    return this.childNodes.filter((n) => n.nodeType === 1);
  }
  get childElementCount() {
    return this.children.length;
  }
  get textContent() {
    return this.childNodes.map((n) => n.textContent).join("");
  }
  set textContent(text) {
    this.replaceChildren(...(text === "" ? [] : [this.ownerDocument.createTextNode(String(text))]));
  }
  append(...nodes) {
    for (const n of nodes) this.insertBefore(typeof n === "string" ? this.ownerDocument.createTextNode(n) : n, null);
  }
  insertBefore(node, ref) {
    if (node.parentNode) node.parentNode.removeChild(node);
    const at = ref ? this.childNodes.indexOf(ref) : this.childNodes.length;
    this.childNodes.splice(at < 0 ? this.childNodes.length : at, 0, node);
    node.parentNode = this;
    return node;
  }
  removeChild(node) {
    const at = this.childNodes.indexOf(node);
    if (at < 0) throw new Error("not a child");
    this.childNodes.splice(at, 1);
    node.parentNode = null;
    const doc = this.ownerDocument;
    if (doc.activeElement && (doc.activeElement === node || node.contains(doc.activeElement))) doc.activeElement = doc.body; // a removed element loses the focus
    return node;
  }
  replaceWith(node) {
    this.parentNode.insertBefore(node, this);
    this.parentNode.removeChild(this);
  }
  after(node) {
    const parent = this.parentNode;
    parent.insertBefore(node, parent.childNodes[parent.childNodes.indexOf(this) + 1] || null);
  }
  replaceChildren(...nodes) {
    for (const n of [...this.childNodes]) this.removeChild(n);
    this.append(...nodes);
  }
  contains(other) {
    for (let n = other; n; n = n.parentNode) if (n === this) return true;
    return false;
  }
  addEventListener(type, fn, capture) {
    (this.listeners[type] ||= []).push([fn, Boolean(capture)]);
  }
  removeEventListener(type, fn, capture) {
    this.listeners[type] = (this.listeners[type] || []).filter(([f, c]) => f !== fn || c !== Boolean(capture));
  }
  listenerCount() {
    return Object.values(this.listeners).reduce((sum, list) => sum + list.length, 0);
  }
}

class Text extends Node {
  constructor(doc, data) {
    super(doc);
    this.nodeType = 3;
    this.nodeName = "#text";
    this.data = data;
  }
  get textContent() {
    return this.data;
  }
  set textContent(text) {
    this.data = String(text);
  }
}

function parseCompound(text) {
  const m = /^([a-zA-Z*]*)(.*)$/.exec(text);
  const parts = { tag: m[1] && m[1] !== "*" ? m[1].toUpperCase() : null, classes: [], attrs: [] };
  const re = /\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/g;
  let rest = m[2];
  let found;
  while ((found = re.exec(rest))) {
    if (found[1]) parts.classes.push(found[1]);
    else parts.attrs.push([found[2], found[3]]);
  }
  return parts;
}

function matchCompound(el, c) {
  if (el.nodeType !== 1) return false;
  if (c.tag && el.nodeName !== c.tag) return false;
  const classes = el.className.split(/\s+/);
  if (!c.classes.every((k) => classes.includes(k))) return false;
  return c.attrs.every(([name, value]) => el.hasAttribute(name) && (value === undefined || el.getAttribute(name) === value));
}

function matches(el, selector) {
  return selector.split(",").some((one) => {
    const chain = one.trim().split(/\s+/).map(parseCompound);
    if (!matchCompound(el, chain[chain.length - 1])) return false;
    let at = el.parentNode;
    for (let i = chain.length - 2; i >= 0; i -= 1) {
      while (at && !matchCompound(at, chain[i])) at = at.parentNode;
      if (!at) return false;
      at = at.parentNode;
    }
    return true;
  });
}

class Element extends Node {
  constructor(doc, tag) {
    super(doc);
    this.nodeType = 1;
    this.nodeName = tag.toUpperCase();
    this.tagName = this.nodeName;
    this.attrs = new Map();
    const el = this;
    this.dataset = new Proxy(
      {},
      {
        get: (_t, key) => (typeof key === "string" && el.hasAttribute(kebab(key)) ? el.getAttribute(kebab(key)) : undefined),
        set: (_t, key, value) => (el.setAttribute(kebab(key), value), true),
        deleteProperty: (_t, key) => (el.removeAttribute(kebab(key)), true),
        has: (_t, key) => el.hasAttribute(kebab(key)),
        ownKeys: () => [...el.attrs.keys()].filter((n) => n.startsWith("data-")).map(camel),
        getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
      },
    );
    this.style = new Proxy(
      {},
      {
        set: (styles, key, value) => {
          styles[key] = value;
          el.setAttribute("style", Object.entries(styles).map(([k, v]) => `${k}: ${v};`).join(" "));
          return true;
        },
      },
    );
    this.classList = {
      add: (...names) => {
        const now = el.className.split(/\s+/).filter(Boolean);
        for (const n of names) if (!now.includes(n)) now.push(n);
        el.className = now.join(" ");
      },
      remove: (...names) => (el.className = el.className.split(/\s+/).filter((n) => n && !names.includes(n)).join(" ")),
      contains: (name) => el.className.split(/\s+/).includes(name),
    };
  }
  get attributes() {
    return [...this.attrs].map(([name, value]) => ({ name, value }));
  }
  getAttribute(name) {
    return this.attrs.has(name) ? this.attrs.get(name) : null;
  }
  setAttribute(name, value) {
    this.attrs.set(name, String(value));
  }
  removeAttribute(name) {
    this.attrs.delete(name);
  }
  hasAttribute(name) {
    return this.attrs.has(name);
  }
  get className() {
    return this.getAttribute("class") || "";
  }
  set className(value) {
    this.setAttribute("class", value);
  }
  get id() {
    return this.getAttribute("id") || "";
  }
  get tabIndex() {
    return this.hasAttribute("tabindex") ? Number(this.getAttribute("tabindex")) : -1;
  }
  set tabIndex(value) {
    this.setAttribute("tabindex", value);
  }
  get href() {
    return this.getAttribute("href");
  }
  set href(value) {
    this.setAttribute("href", value);
  }
  set innerHTML(_html) {
    throw new Error("innerHTML is never set");
  }
  insertAdjacentHTML() {
    throw new Error("insertAdjacentHTML is never called");
  }
  matches(selector) {
    return matches(this, selector);
  }
  closest(selector) {
    for (let n = this; n && n.nodeType === 1; n = n.parentNode) if (matches(n, selector)) return n;
    return null;
  }
  querySelectorAll(selector) {
    const out = [];
    const walk = (n) => {
      for (const c of n.children) {
        if (matches(c, selector)) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }
  querySelector(selector) {
    return this.querySelectorAll(selector)[0] || null;
  }
  focus() {
    const doc = this.ownerDocument;
    let n = this;
    while (n.parentNode) n = n.parentNode;
    if (n !== doc.body) return; // not on the page: no focus
    doc.activeElement = this;
    this.dispatchEvent({ type: "focusin", bubbles: true });
  }
  dispatchEvent(event) {
    event.target ||= this;
    let stopped = false;
    event.preventDefault ||= () => (event.defaultPrevented = true);
    event.stopPropagation = () => (stopped = true);
    event.stopImmediatePropagation = () => (stopped = true);
    const win = this.ownerDocument.defaultView;
    for (const [fn, capture] of [...(win.listeners[event.type] || [])]) if (capture && !stopped) fn(event);
    for (let n = this; n && !stopped; n = event.bubbles ? n.parentNode : null) {
      for (const [fn] of [...(n.listeners[event.type] || [])]) fn(event);
    }
    return !event.defaultPrevented;
  }
}

/** A fresh page: {document, window}; installs them (and CSS) as globals, as a browser has. */
export function installDom(href = "http://localhost:8888/lab/tree/notebooks/03-claim-proofs.ipynb") {
  const win = { location: { href }, listeners: {} };
  Object.setPrototypeOf(win, Node.prototype);
  const doc = {
    defaultView: win,
    createElement: (tag) => new Element(doc, tag),
    createTextNode: (text) => new Text(doc, String(text)),
    querySelector: (selector) => doc.body.querySelector(selector),
  };
  doc.body = new Element(doc, "body");
  doc.activeElement = doc.body;
  globalThis.document = doc;
  globalThis.window = win;
  globalThis.CSS = { escape: (s) => String(s).replace(/["\\]/g, "\\$&") };
  return { document: doc, window: win };
}

/** A model as anywidget gives one: get/on/off the synced `view` (and any other trait in `traits`), every
 * message sent, and `receive(msg)` for a custom message from Python (none comes without a kernel). */
export function fakeModel(view, traits = {}) {
  const handlers = [];
  const model = {
    view,
    sent: [],
    get: (name) => (name === "view" ? model.view : traits[name]),
    send: (message) => model.sent.push(message),
    on: (name, fn) => handlers.push([name, fn]),
    off: (name, fn) => handlers.splice(handlers.findIndex(([n, f]) => n === name && f === fn), 1),
    handlers,
    set(next) {
      model.view = next;
      for (const [name, fn] of [...handlers]) if (name === "change:view") fn();
    },
    receive(message) {
      for (const [name, fn] of [...handlers]) if (name === "msg:custom") fn(message, []);
    },
  };
  return model;
}

/** A localStorage of this test's own. */
export function memoryStorage() {
  const kept = new Map();
  return {
    getItem: (k) => (kept.has(k) ? kept.get(k) : null),
    setItem: (k, v) => kept.set(k, String(v)),
    removeItem: (k) => kept.delete(k),
    kept,
  };
}
