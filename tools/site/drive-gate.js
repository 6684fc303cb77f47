// Every JupyterLite page of the site (lab/, notebooks/, tree/, ...): the lesson's kernel always gets
// the browser-kept drive, so a learner's progress is never written to a folder that a reload forgets.
//
// tools/build_site.py puts this script first in the head of each of JupyterLite's app pages and makes
// the page's start-up wait for `battlelineLabDriveReady()` before it loads JupyterLite (docs/site.md,
// "The drive on every page").
//
// Why: JupyterLite's Pyodide kernel mounts the drive (/drive, where the progress store lives) only if
// its service worker is registered when the kernel is created, and the kernel's requests reach the
// drive only through a service worker that controls the page.  JupyterLite registers the worker on
// the first page a browser opens without remembering the version it registered; on the second page
// it takes the worker for an old version, unregisters it and registers it again while the lesson
// opens.  That page's kernel could then start before the new worker was ready, and what the learner
// did in that lesson was lost (seen: a puzzle solved in the second lesson opened, its record missing
// after a reload).  Here, before JupyterLite starts, the worker is registered (if it is not yet),
// made to control the page, and its version remembered as JupyterLite remembers it, so JupyterLite's
// own start finds it current and ready.  A new version of the site (another JupyterLite) still
// replaces an old worker, here, before the lesson opens.  If anything here fails or takes more than
// ten seconds, JupyterLite starts as it would have without it.
(function () {
  "use strict";
  // the JupyterLite version of this site (jupyter-lite.json's appVersion), filled in by build_site.py
  var VERSION = "__JUPYTERLITE_VERSION__";
  var WAIT_MS = 10000;

  function root() {
    // the site's root relative to this page, as JupyterLite reads it (data-jupyter-lite-root)
    var config = document.getElementById("jupyter-config-data");
    var relative = (config && config.getAttribute("data-jupyter-lite-root")) || ".";
    return new URL(relative.replace(/\/?$/, "/"), window.location.href);
  }

  function controlled(workers, url) {
    return workers.controller !== null && workers.controller.scriptURL === url;
  }

  function until(test, ms) {
    // resolves once test() holds (looked at every 50 ms), or after ms
    var end = Date.now() + ms;
    return new Promise(function (resolve) {
      (function look() {
        if (test() || Date.now() >= end) {
          resolve();
        } else {
          window.setTimeout(look, 50);
        }
      })();
    });
  }

  async function ready() {
    var workers = navigator.serviceWorker;
    if (!workers) {
      return; // no service workers here (JupyterLite says its drive is not synced)
    }
    // the worker's address exactly as JupyterLite registers it (the cache stays off: the site does
    // not set enableServiceWorkerCache)
    var url = new URL("service-worker.js?enableCache=false", root()).href;
    var key = url + "-version"; // where JupyterLite remembers the version it registered
    var known = window.localStorage.getItem(key);
    if (controlled(workers, url) && known === VERSION) {
      return; // the usual case: nothing to do
    }
    if (workers.controller !== null && known !== null && known !== VERSION) {
      // another version of the site registered it: replace it now, as JupyterLite would have
      var old = await workers.getRegistrations();
      await Promise.all(
        old.map(function (registration) {
          return registration.unregister();
        }),
      );
    }
    var registration = await workers.register(url);
    if (registration.installing !== null || registration.waiting !== null) {
      // a new worker: it claims the page when it activates, so the page (and the kernel's worker,
      // made later) is controlled by it, not by one that is being replaced
      await until(function () {
        return registration.active !== null && workers.controller === registration.active;
      }, WAIT_MS);
    }
    // a page the worker does not control (a reload that bypassed it: Shift+Reload) is left as it
    // is, at once: waiting would not change it
    if (controlled(workers, url)) {
      window.localStorage.setItem(key, VERSION);
    }
  }

  window.battlelineLabDriveReady = function () {
    var timeout = new Promise(function (resolve) {
      window.setTimeout(resolve, WAIT_MS);
    });
    return Promise.race([ready().catch(console.warn), timeout]);
  };
})();
