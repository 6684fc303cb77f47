// Play benchmark games in Pyodide, the Python the site's kernel runs, under Node.js.
//
// Used by benchmarks/bench_master.py --pyodide: the master's move times in the browser's Python,
// with the same code and the same seeded games as in CPython.  Pyodide's core comes from the site's
// download cache (the npm package tools/build_site.py unpacks), PyYAML from the pure wheel the site
// ships; nothing is fetched.  The repository is mounted read-only in spirit (nothing is written to
// it: no bytecode), bench_master.py is imported from it, and its pyodide_games(JOB) runs; the one
// line it returns (JSON) is printed after the marker the Python side looks for.
//
// Usage: node pyodide_games.mjs PYODIDE_DIR REPO PYYAML_WHEEL JOB_JSON
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [core, repo, wheel, job] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(core, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: core + path.sep, stdout: (s) => console.error(s), stderr: (s) => console.error(s) });
py.FS.mkdirTree("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root: repo }, "/repo");
py.FS.writeFile("/tmp/pyyaml.whl", fs.readFileSync(wheel));
py.globals.set("JOB", job);
const out = py.runPython(`
import sys, zipfile
sys.dont_write_bytecode = True
zipfile.ZipFile("/tmp/pyyaml.whl").extractall("/tmp/site-packages")
sys.path[:0] = ["/repo", "/repo/benchmarks", "/tmp/site-packages"]
import bench_master
bench_master.pyodide_games(JOB)
`);
console.log("PYODIDE-RESULT " + out);
