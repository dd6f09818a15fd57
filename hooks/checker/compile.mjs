// Build time, Node.js: compile SymPy and mpmath to the bytecode of the Pyodide the site serves.
//
//   node hooks/checker/compile.mjs PYODIDE_DIR SOURCES.zip OUT.zip
//
// SOURCES.zip holds the packages' files; OUT.zip the same files with every module as a .pyc in
// its place (the reader's browser then imports SymPy in a third of the time it takes to compile
// its source). The bytecode is Pyodide's own: it is compiled by the runtime that will load it.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, source, target] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`, stdout: () => {}, stderr: (line) => console.error(line) });
pyodide.FS.writeFile("/tmp/sources.zip", readFileSync(source));
pyodide.runPython(`
import compileall, os, zipfile

zipfile.ZipFile("/tmp/sources.zip").extractall("/tmp/src")
if not compileall.compile_dir("/tmp/src", quiet=2, legacy=True):
    raise SystemExit("compileall failed")
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as out:
    for folder, dirs, names in sorted(os.walk("/tmp/src")):
        dirs.sort()
        for name in sorted(names):
            if not name.endswith(".py"):          # the .pyc in its place, and data files
                path = os.path.join(folder, name)
                out.write(path, os.path.relpath(path, "/tmp/src"))
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/out.zip"));
