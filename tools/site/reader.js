// The site's reading view: a lesson's saved widgets drawn without JupyterLab (docs/site.md).
//
// A small widget manager of our own (no npm package, nothing fetched from another host).  It draws
// the ipywidgets a lesson saved (the notebook's "application/vnd.jupyter.widget-state+json": boxes,
// HTML, buttons, toggles, dropdowns, text fields, Output) and anywidget's AnyModel (the board:
// its ES module imported once, then render({model, el}) with a model shim).
//
//   renderWidget(el, states, rootId, backend) -> handle
//     states:  {model_id: {model_name, model_module, model_module_version, state}}
//     backend: null (the saved widgets, no kernel: model.send goes nowhere, as in a notebook opened
//              without a kernel, so the board answers from the response table it carries), or
//              {send(modelId, content), set(modelId, patch)} (a kernel behind the page)
//     handle.update(modelId, patchedState)   a kernel changed a model (only the keys given)
//     handle.add(states)                     a kernel made new models
//     handle.custom(modelId, content)        a kernel's custom message to a model (its "msg:custom")
//
// The page calls start(), which draws every `.bl-widget[data-model-id]` of the page from the
// saved state in `<script type="application/json" id="bl-widget-state">` (data, never run).
// Nothing here decides anything about the game: it draws what the models hold.

const REF = "IPY_MODEL_";

/** A model id from a saved reference ("IPY_MODEL_<id>"), or null. */
export function refId(value) {
  return typeof value === "string" && value.startsWith(REF) ? value.slice(REF.length) : null;
}

/** A Layout model's traits as inline CSS (only the ones set): display, width, flex, margin... */
export function layoutCss(state) {
  const css = {};
  for (const [key, value] of Object.entries(state || {})) {
    if (key.startsWith("_") || value === null || value === undefined || value === "") continue;
    if (typeof value !== "string" && typeof value !== "number") continue;
    css[key.replace(/_/g, "-")] = String(value);
  }
  return css;
}

const modules = new Map(); // the ES modules of AnyModels, by address or source: imported once
const sheets = new Set(); // the stylesheets of AnyModels, added to the page once

/** An AnyModel's module: `_esm` is an address of a file the site ships, or the module's source. */
function importEsm(esm) {
  if (!modules.has(esm)) {
    const isFile = !/\s/.test(esm) && /\.m?js(\?.*)?$/.test(esm);
    const url = isFile
      ? new URL(esm, document.baseURI).href
      : URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
    modules.set(esm, import(url));
  }
  return modules.get(esm);
}

function addCss(css) {
  if (!css || sheets.has(css)) return;
  sheets.add(css);
  const isFile = !/\s/.test(css) && /\.css(\?.*)?$/.test(css);
  const node = isFile ? document.createElement("link") : document.createElement("style");
  if (isFile) {
    node.rel = "stylesheet";
    node.href = new URL(css, document.baseURI).href;
  } else {
    node.textContent = css;
  }
  document.head.append(node);
}

function make(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** A rule link of a lesson (rules.md#R12, /rules.md#R12) goes to the site's rules page. */
export function ruleLink(href) {
  const found = /(^|\/)rules\.md(#[A-Za-z0-9_-]*)?$/.exec(href || "");
  return found ? `../rules.html${found[2] || ""}` : null;
}

function fixRuleLinks(root) {
  for (const a of root.querySelectorAll("a[href]")) {
    const to = ruleLink(a.getAttribute("href"));
    if (to) a.setAttribute("href", to);
  }
}

export function renderWidget(el, states, rootId, backend) {
  /** id -> {id, name, module, state, events: Map(name -> Set(fn))} */
  const models = new Map();
  /** id -> Set(view) of views to refresh when that model changes (its own, and its layout's owners) */
  const watchers = new Map();
  const live = Boolean(backend);

  function addModels(more) {
    for (const [id, saved] of Object.entries(more || {})) {
      const state = { ...(saved.state || {}) };
      const found = models.get(id);
      if (found) {
        Object.assign(found.state, state);
        continue;
      }
      models.set(id, {
        id,
        name: saved.model_name || state._model_name,
        module: saved.model_module || state._model_module,
        state,
        events: new Map(),
      });
    }
  }

  function emit(model, event, ...args) {
    for (const fn of [...(model.events.get(event) || [])]) {
      try {
        fn(...args);
      } catch (error) {
        console.error(error);
      }
    }
  }

  function watch(id, view) {
    if (!id) return;
    if (!watchers.has(id)) watchers.set(id, new Set());
    watchers.get(id).add(view);
  }

  function refresh(id) {
    for (const view of [...(watchers.get(id) || [])]) {
      if (view.el.isConnected || view.el === el.firstChild) view.update();
    }
  }

  /** The layout and style of a widget (display none hides it), and its _dom_classes. */
  function decorate(node, model, base) {
    const state = model.state;
    node.className = [base, ...(state._dom_classes || [])].filter(Boolean).join(" ");
    node.removeAttribute("style");
    const layout = models.get(refId(state.layout));
    for (const [key, value] of Object.entries(layout ? layoutCss(layout.state) : {})) {
      node.style.setProperty(key, value);
    }
    const style = models.get(refId(state.style));
    const s = style ? style.state : {};
    if (s.button_color) node.style.setProperty("background-color", s.button_color);
    if (s.text_color) node.style.setProperty("color", s.text_color);
    if (s.font_weight) node.style.setProperty("font-weight", s.font_weight);
    if (s.font_size) node.style.setProperty("font-size", s.font_size);
    if (s.background) node.style.setProperty("background", s.background);
    if (state.tooltip) node.title = state.tooltip;
    return s;
  }

  function labelled(node, model, control) {
    const label = make("label", "widget-label");
    const description = model.state.description || "";
    if (model.state.description_allow_html) label.innerHTML = description;
    else label.textContent = description;
    label.style.display = description ? "" : "none";
    node.replaceChildren(label, control);
  }

  /** Refused when there is no kernel: the control says so rather than take a tap that goes nowhere. */
  function offline(control) {
    if (live) return;
    control.disabled = true;
    const why = document.documentElement.dataset.blNeedsPython;
    if (why) control.title = why;
  }

  const draw = {
    box(view, model, kind) {
      decorate(view.el, model, `widget-container widget-box ${kind}`);
      const kids = (model.state.children || []).map(refId).filter((id) => models.has(id));
      const keep = view.kids || new Map();
      const next = new Map();
      const nodes = [];
      for (const id of kids) {
        const child = keep.get(id) || makeView(id);
        next.set(id, child);
        nodes.push(child.el);
      }
      view.kids = next;
      const same = nodes.length === view.el.children.length && nodes.every((n, i) => view.el.children[i] === n);
      if (!same) view.el.replaceChildren(...nodes);
    },
    VBoxModel(view, model) {
      draw.box(view, model, "widget-vbox");
    },
    HBoxModel(view, model) {
      draw.box(view, model, "widget-hbox");
    },
    BoxModel(view, model) {
      draw.box(view, model, "");
    },
    GridBoxModel(view, model) {
      draw.box(view, model, "widget-gridbox");
    },
    HTMLModel(view, model) {
      decorate(view.el, model, "widget-inline-hbox widget-html");
      const content = make("div", "widget-html-content");
      content.innerHTML = model.state.value || "";
      fixRuleLinks(content);
      labelled(view.el, model, content);
    },
    HTMLMathModel(view, model) {
      draw.HTMLModel(view, model);
    },
    LabelModel(view, model) {
      decorate(view.el, model, "widget-label-basic");
      view.el.textContent = model.state.value || "";
    },
    ButtonModel(view, model) {
      if (!view.button) {
        view.button = make("button", "");
        view.button.type = "button";
        view.button.addEventListener("click", () => {
          if (backend) backend.send(model.id, { event: "click" });
        });
        view.el.append(view.button);
      }
      decorate(view.el, model, "bl-reader-button");
      const b = view.button;
      const style = model.state.button_style;
      b.className = ["jupyter-widgets", "jupyter-button", "widget-button", style ? `mod-${style}` : ""]
        .filter(Boolean)
        .join(" ");
      b.textContent = model.state.description || "";
      b.disabled = Boolean(model.state.disabled);
      if (model.state.tooltip) b.title = model.state.tooltip;
      offline(b);
    },
    ToggleButtonsModel(view, model) {
      const s = decorate(view.el, model, "widget-inline-hbox widget-toggle-buttons");
      const group = make("div", "btn-group");
      group.setAttribute("role", "group");
      (model.state._options_labels || []).forEach((text, index) => {
        const b = make("button", "widget-toggle-button jupyter-button", text);
        b.type = "button";
        if (index === model.state.index) b.classList.add("mod-active");
        b.setAttribute("aria-pressed", String(index === model.state.index));
        if (s.button_width) b.style.width = s.button_width;
        b.disabled = Boolean(model.state.disabled);
        b.addEventListener("click", () => setFromView(model, { index }));
        offline(b);
        group.append(b);
      });
      labelled(view.el, model, group);
    },
    ToggleButtonModel(view, model) {
      decorate(view.el, model, "bl-reader-toggle");
      const b = make("button", "widget-toggle-button jupyter-button", model.state.description || "");
      b.type = "button";
      if (model.state.value) b.classList.add("mod-active");
      b.setAttribute("aria-pressed", String(Boolean(model.state.value)));
      b.disabled = Boolean(model.state.disabled);
      b.addEventListener("click", () => setFromView(model, { value: !model.state.value }));
      offline(b);
      view.el.replaceChildren(b);
    },
    DropdownModel(view, model) {
      decorate(view.el, model, "widget-inline-hbox widget-dropdown");
      const select = make("select", "");
      (model.state._options_labels || []).forEach((text, index) => {
        const option = make("option", "", text);
        option.value = String(index);
        option.selected = index === model.state.index;
        select.append(option);
      });
      select.disabled = Boolean(model.state.disabled);
      select.addEventListener("change", () => setFromView(model, { index: Number(select.value) }));
      offline(select);
      labelled(view.el, model, select);
    },
    CheckboxModel(view, model) {
      decorate(view.el, model, "widget-inline-hbox widget-checkbox");
      const label = make("label", "widget-label-basic");
      const box = make("input", "");
      box.type = "checkbox";
      box.checked = Boolean(model.state.value);
      box.disabled = Boolean(model.state.disabled);
      box.addEventListener("change", () => setFromView(model, { value: box.checked }));
      offline(box);
      label.append(box, make("span", "", model.state.description || ""));
      view.el.replaceChildren(label);
    },
    TextModel(view, model) {
      decorate(view.el, model, "widget-inline-hbox widget-text");
      const input = make("input", "");
      input.type = "text";
      input.value = model.state.value || "";
      input.placeholder = (model.state.placeholder || "").replace("\u200b", "");
      input.disabled = Boolean(model.state.disabled);
      input.addEventListener("change", () => setFromView(model, { value: input.value }));
      offline(input);
      labelled(view.el, model, input);
    },
    TextareaModel(view, model) {
      decorate(view.el, model, "widget-inline-hbox widget-textarea");
      const input = make("textarea", "");
      input.value = model.state.value || "";
      input.rows = model.state.rows || 4;
      input.disabled = Boolean(model.state.disabled);
      input.addEventListener("change", () => setFromView(model, { value: input.value }));
      offline(input);
      labelled(view.el, model, input);
    },
    FileUploadModel(view, model) {
      decorate(view.el, model, "widget-upload");
      const b = make("button", "jupyter-button widget-button", model.state.description || "");
      b.type = "button";
      b.disabled = true; // a file goes to the kernel: never without one (live37's backend may draw it anew)
      if (backend) b.disabled = Boolean(model.state.disabled);
      offline(b);
      view.el.replaceChildren(b);
    },
    OutputModel(view, model) {
      decorate(view.el, model, "widget-output");
      const nodes = (model.state.outputs || []).map((output) => drawOutput(output));
      view.el.replaceChildren(...nodes);
    },
    AnyModel(view, model) {
      decorate(view.el, model, "bl-reader-any");
      if (view.started) return; // the module redraws itself on change events
      view.started = true;
      const host = make("div", "");
      view.el.replaceChildren(host);
      addCss(model.state._css);
      importEsm(model.state._esm)
        .then(async (mod) => {
          let widget = mod.default || mod;
          if (typeof widget === "function") widget = await widget();
          const shim = modelShim(model);
          if (widget.initialize) await widget.initialize({ model: shim });
          if (widget.render) view.cleanup = await widget.render({ model: shim, el: host });
          fixRuleLinks(host);
          // the board draws its proof's rule links as the notebook's (rules.md#R12): the site's rules page
          const watchLinks = { childList: true, subtree: true, attributes: true, attributeFilter: ["href"] };
          new MutationObserver(() => fixRuleLinks(host)).observe(host, watchLinks);
          view.el.dataset.ready = "true";
        })
        .catch((error) => {
          console.error(error);
          view.el.dataset.ready = "error";
        });
    },
  };

  /** A text output of a saved Output widget (the same preference order as the page's cells). */
  function drawOutput(output) {
    const data = output.data || {};
    const node = make("div", "bl-output");
    const viewRef = data["application/vnd.jupyter.widget-view+json"];
    if (viewRef && models.has(viewRef.model_id)) {
      node.append(makeView(viewRef.model_id).el);
    } else if (data["text/html"] !== undefined) {
      node.innerHTML = [].concat(data["text/html"]).join("");
    } else if (data["image/svg+xml"] !== undefined) {
      node.innerHTML = [].concat(data["image/svg+xml"]).join("");
    } else {
      const text = output.text !== undefined ? output.text : data["text/plain"];
      node.append(make("pre", "", [].concat(text || "").join("")));
    }
    fixRuleLinks(node);
    return node;
  }

  /** A change made in the page (a toggle, a dropdown): drawn at once, and told to the kernel if there is one. */
  function setFromView(model, patch) {
    Object.assign(model.state, patch);
    for (const key of Object.keys(patch)) emit(model, `change:${key}`, model.state[key]);
    emit(model, "change");
    refresh(model.id);
    if (backend) backend.set(model.id, patch);
  }

  function modelShim(model) {
    let dirty = {};
    return {
      get: (key) => model.state[key],
      set(key, value) {
        model.state[key] = value;
        dirty[key] = value;
        emit(model, `change:${key}`, value);
        emit(model, "change");
      },
      on(event, fn) {
        if (!model.events.has(event)) model.events.set(event, new Set());
        model.events.get(event).add(fn);
      },
      off(event, fn) {
        if (!event) model.events.clear();
        else if (!fn) model.events.delete(event);
        else if (model.events.has(event)) model.events.get(event).delete(fn);
      },
      send(content) {
        // no kernel: the message goes nowhere, as from a notebook's saved widget without a kernel
        if (backend) backend.send(model.id, content);
      },
      save_changes() {
        const patch = dirty;
        dirty = {};
        if (backend && Object.keys(patch).length) backend.set(model.id, patch);
      },
      widget_manager: {
        get_model: async (id) => (models.has(id) ? modelShim(models.get(id)) : undefined),
      },
    };
  }

  function makeView(id) {
    const model = models.get(id);
    const view = { id, el: make("div", ""), update: () => {} };
    const paint = draw[model.name];
    view.update = () => {
      if (paint) paint(view, model);
      else {
        view.el.className = "bl-reader-unknown";
        view.el.textContent = "";
      }
    };
    watch(id, view);
    watch(refId(model.state.layout), view);
    watch(refId(model.state.style), view);
    view.update();
    return view;
  }

  addModels(states);
  const root = models.has(rootId) ? makeView(rootId) : null;
  el.replaceChildren(...(root ? [root.el] : []));
  el.dataset.rendered = root ? "true" : "missing";

  return {
    update(modelId, patchedState) {
      const model = models.get(modelId);
      if (!model) return;
      const patch = patchedState || {};
      Object.assign(model.state, patch);
      for (const key of Object.keys(patch)) {
        if (key === "layout" || key === "style") {
          for (const view of watchers.get(modelId) || []) if (view.id === modelId) watch(refId(patch[key]), view);
        }
        emit(model, `change:${key}`, model.state[key]);
      }
      emit(model, "change");
      if (model.name !== "AnyModel") refresh(modelId);
    },
    add(more) {
      addModels(more);
    },
    // a kernel's custom message to a model (Python's widget.send): the module's "msg:custom" listeners
    custom(modelId, content, buffers) {
      const model = models.get(modelId);
      if (model) emit(model, "msg:custom", content, buffers || []);
    },
    models,
  };
}

/** Draw every saved widget of the page; `backendFor(rootId)` may give a kernel's backend (else none). */
export function start(backendFor = () => null) {
  const data = document.getElementById("bl-widget-state");
  const saved = data ? JSON.parse(data.textContent || "{}") : {};
  const states = saved.state || {};
  const handles = [];
  for (const el of document.querySelectorAll(".bl-widget[data-model-id]")) {
    const rootId = el.dataset.modelId;
    if (!states[rootId]) continue;
    handles.push(renderWidget(el, states, rootId, backendFor(rootId)));
  }
  // a proof step's rule link (drawn by the board as the notebook's /rules.md#R12): the site's rules page
  document.addEventListener("click", (e) => {
    const a = e.target && e.target.closest ? e.target.closest("a[href]") : null;
    const to = a ? ruleLink(a.getAttribute("href")) : null;
    if (to) a.setAttribute("href", to);
  });
  return handles;
}
