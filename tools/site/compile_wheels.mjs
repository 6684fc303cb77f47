// Pre-compile the site's pure wheels to bytecode with the site's own Python (Pyodide in Node.js).
//
// Used by tools/build_site.py (docs/site.md, "Speed"): Pyodide's CPython is the only Python whose
// bytecode the site's kernel can read (3.14, its own magic number), and the npm package that the
// build already unpacks runs in Node.js as well as in the browser.  For each wheel, every .py file
// gets its __pycache__/NAME.cpython-314.pyc beside it ("unchecked-hash": read without looking at
// the source again, which stays for tracebacks), added to a copy of the wheel; nothing else changes.
//
// Usage: node compile_wheels.mjs PYODIDE_DIR JOBS_JSON
//   JOBS_JSON: a file holding [[input wheel, output wheel], ...] (absolute paths)
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [core, jobsFile] = process.argv.slice(2);
const jobs = JSON.parse(fs.readFileSync(jobsFile, "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(core, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: core + path.sep, stdout: () => {}, stderr: (s) => console.error(s) });
py.runPython(`
import compileall, io, os, py_compile, re, shutil, sys, warnings, zipfile

def compiled(source_path: str, out_path: str) -> None:
    """The wheel with a pyc beside each .py (entries in their order, each pyc after its source)."""
    with open(source_path, "rb") as file:
        source = file.read()
    work = "/tmp/wheel"
    shutil.rmtree(work, ignore_errors=True)
    with zipfile.ZipFile(io.BytesIO(source)) as wheel:
        names = wheel.namelist()
        wheel.extractall(work)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarnings of the packages' own tests
        compileall.compile_dir(  # the packages' own tests are never imported: left as they are
            work, quiet=2, rx=re.compile(r"[/\\\\]tests?[/\\\\]"), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
        )
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as wheel, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as new:
        for info in wheel.infolist():
            new.writestr(info, wheel.read(info.filename))
            if info.filename.endswith(".py"):
                folder, name = os.path.split(info.filename)
                pyc = f"{folder}/__pycache__/{name[:-3]}.{sys.implementation.cache_tag}.pyc".lstrip("/")
                if os.path.exists(f"{work}/{pyc}") and pyc not in names:
                    new.write(f"{work}/{pyc}", pyc)
    with open(out_path, "wb") as file:
        file.write(out.getvalue())
`);
const compiled = py.globals.get("compiled");
for (const [input, output] of jobs) {
  py.FS.writeFile("/tmp/in.whl", fs.readFileSync(input));
  compiled("/tmp/in.whl", "/tmp/out.whl");
  fs.writeFileSync(output + ".part", py.FS.readFile("/tmp/out.whl"));
  fs.renameSync(output + ".part", output);
}
console.log(py.runPython("sys.implementation.cache_tag"));
