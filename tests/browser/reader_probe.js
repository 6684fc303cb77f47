// A probe of tools/site/reader.js's interface, run in a reading page by test_site_reader_browser.py:
// draws a small saved tree (a box, HTML, a button, a menu, an AnyModel from its source) with a
// backend that records what it is told, or none; returns what it drew and what the backend heard.
async ([live]) => {
  const { renderWidget } = await import(new URL('reader.js', document.baseURI).href);
  const esm = `export default { render({ model, el }) {
      const b = document.createElement('button'); b.className = 'any';
      const draw = () => { b.textContent = 'n=' + model.get('n'); };
      b.onclick = () => { model.send({ tapped: model.get('n') }); model.set('n', model.get('n') + 1); model.save_changes(); };
      model.on('change:n', draw); model.on('msg:custom', (msg) => { b.dataset.heard = JSON.stringify(msg); });
      draw(); el.append(b);
  } }`;
  const m = (name, state) => ({ model_name: name, model_module: '@jupyter-widgets/controls', model_module_version: '2.0.0', state });
  const states = {
    box: m('VBoxModel', { children: ['IPY_MODEL_html', 'IPY_MODEL_button', 'IPY_MODEL_menu', 'IPY_MODEL_any'], layout: 'IPY_MODEL_lay' }),
    lay: m('LayoutModel', { display: null, width: '300px' }),
    html: m('HTMLModel', { value: '<b>saved</b> <a href="/rules.md#R12">R12</a>' }),
    button: m('ButtonModel', { description: 'Go', _dom_classes: ['go'] }),
    menu: m('DropdownModel', { _options_labels: ['a', 'b'], index: 0 }),
    any: { model_name: 'AnyModel', model_module: 'anywidget', model_module_version: '~0.11.*', state: { _esm: esm, n: 1 } },
  };
  const told = [];
  const backend = live ? { send: (id, content) => told.push(['send', id, content]), set: (id, patch) => told.push(['set', id, patch]) } : null;
  const el = document.createElement('div'); el.id = 'probe'; document.body.append(el);
  const handle = renderWidget(el, states, 'box', backend);
  const wait = async (f) => { for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 20)); return f(); };
  await wait(() => el.querySelector('button.any'));
  const out = { html: el.querySelector('.widget-html-content').innerHTML, width: el.firstChild.style.width };
  out.disabled = el.querySelector('.go button').disabled;
  el.querySelector('.go button').click();
  const select = el.querySelector('select'); select.value = '1'; select.dispatchEvent(new Event('change'));
  el.querySelector('button.any').click();
  out.any = el.querySelector('button.any').textContent;
  handle.update('html', { value: '<i>from the kernel</i>' });
  handle.update('any', { n: 7 });
  handle.add({ more: m('HTMLModel', { value: 'added' }) });
  handle.update('box', { children: [...states.box.state.children, 'IPY_MODEL_more'] });
  handle.update('lay', { display: 'none' });
  handle.custom('any', { pong: true });
  out.after = { html: el.querySelector('.widget-html-content').innerHTML, any: el.querySelector('button.any').textContent,
    added: el.textContent.includes('added'), heard: el.querySelector('button.any').dataset.heard, hidden: getComputedStyle(el.firstChild).display, sameBoard: el.querySelectorAll('button.any').length };
  out.told = told;
  el.remove();
  return out;
}
