// The site's JupyterLab (lab/index.html): a lesson opened by its link opens alone, and the browser's
// Back leaves it.
//
// tools/build_site.py puts this script first in the head of the site's lab/index.html, so it runs
// before JupyterLite's own code (docs/site.md, "Back to the front page" and "A lesson opened by its
// link opens alone").  The front page links a lesson as lab/index.html?path=LESSON.
//
// 1. A lesson opened by its link opens alone.  JupyterLab restored its workspace first: every lesson
//    opened before in this browser came back as a tab hidden behind the new one, each starting its
//    own Pyodide kernel (after three lessons, three kernels; a learner needs the one in sight).  So
//    an address with `path` (and no `reset`) is changed, before JupyterLite reads it, to `reset` in
//    place of `path`: JupyterLab's own reset-on-load clears the workspace, then drops `reset` from
//    the address with a history push and routes again; that push is given the `path` back, so the
//    second routing opens the lesson (with `path` and `reset` together, JupyterLite opened the
//    lesson while the reset still ran, and the reset's second look reloaded the page without it).
//    A reload, or a visit without `path`, restores the workspace as before (the lesson last opened).
//
// 2. Back leaves the lesson.  JupyterLite's router:tree command, once it has opened the lesson,
//    drops `path` from the address with a history *push* (router.navigate, which calls
//    history.pushState), as the reset does with `reset`.  Back then popped to the `?path=` entry, in
//    the same page: JupyterLite routed it again, opened the lesson and pushed again, so Back never
//    left JupyterLab.  Here a push whose only change is dropping `path` or `reset` (or both) from the
//    address in sight (same page, the same other parameters) is done as a replace: the history holds
//    the front page, then the lesson, and Back returns to the front page.  Every other push is left
//    as it is.
(function () {
  "use strict";
  var history = window.history;
  var push = history.pushState;
  var OURS = ["path", "reset"];

  // the lessons of `path`, given back to the address once the reset has run
  var lessons = [];
  var start = new URL(window.location.href);
  if (start.searchParams.has("path") && !start.searchParams.has("reset")) {
    lessons = start.searchParams.getAll("path");
    start.searchParams.delete("path");
    start.searchParams.append("reset", "");
    history.replaceState(history.state, "", start.href);
  }

  history.pushState = function (state, title, url) {
    if (url !== undefined && url !== null) {
      var here = new URL(window.location.href);
      var next = new URL(String(url), here);
      var rest = new URLSearchParams(here.search);
      // what the push keeps of the address in sight if it only drops `reset` and `path`
      OURS.forEach(function (name) {
        if (!next.searchParams.has(name)) {
          rest.delete(name);
        }
      });
      if (
        OURS.some(function (name) {
          return here.searchParams.has(name) && !next.searchParams.has(name);
        }) &&
        next.origin === here.origin &&
        next.pathname === here.pathname &&
        next.searchParams.toString() === rest.toString()
      ) {
        if (lessons.length && here.searchParams.has("reset") && !next.searchParams.has("reset")) {
          lessons.forEach(function (lesson) {
            next.searchParams.append("path", lesson);
          });
          lessons = [];
          return history.replaceState(state, title, next.href);
        }
        return history.replaceState(state, title, url);
      }
    }
    return push.apply(history, arguments);
  };
})();
