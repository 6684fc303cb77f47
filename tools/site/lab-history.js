// The site's JupyterLab (lab/index.html): the browser's Back leaves a lesson opened by its link.
//
// tools/build_site.py puts this script first in the head of the site's lab/index.html, so it runs
// before JupyterLite's own code (docs/site.md, "Back to the front page").  The front page links a
// lesson as lab/index.html?path=LESSON.  JupyterLite's router:tree command opens the lesson, then
// drops `path` from the address with a history *push* (router.navigate, which calls
// history.pushState).  Back then popped to the `?path=` entry, in the same page: JupyterLite routed
// it again, opened the lesson and pushed again, so Back never left JupyterLab.
//
// Here a push whose only change is dropping `path` from the address in sight (same page, the same
// other parameters) is done as a replace: the history holds the front page, then the lesson, and
// Back returns to the front page.  Every other push is left as it is.
(function () {
  "use strict";
  var history = window.history;
  var push = history.pushState;
  history.pushState = function (state, title, url) {
    if (url !== undefined && url !== null) {
      var here = new URL(window.location.href);
      var next = new URL(String(url), here);
      var rest = new URLSearchParams(here.search);
      rest.delete("path");
      if (
        here.searchParams.has("path") &&
        !next.searchParams.has("path") &&
        next.origin === here.origin &&
        next.pathname === here.pathname &&
        next.searchParams.toString() === rest.toString()
      ) {
        return history.replaceState(state, title, url);
      }
    }
    return push.apply(history, arguments);
  };
})();
