// Build time, Node.js: which modules the grader imports in the Pyodide the site serves, answer by answer.
//
//   node hooks/checker/trace.mjs PYODIDE_DIR SOURCES.zip CASES.json OUT.json
//
// SOURCES.zip holds the grader, SymPy, mpmath (their sources), the fast path's table (cache/) and
// checker_boot.py (what the worker imports before its import hook is in place: part of the start);
// CASES.json {"first": [...], "later": [...], "deferred": [top-level packages], "limit": seconds}, each
// case [op, args] as grader.web takes them. The first cases run with the deferred packages out of
// reach, as on the page before they are fetched (a case that reaches for one is left for later); then
// the later ones. OUT.json: {"start": [...], "first": [...], "later": [...]} the files of the modules
// imported once Pyodide has started and unpacked the zip as the worker does, after the first cases, after all
// (each [root, path]: "stdlib" paths inside the standard library's zip, "course" inside SOURCES.zip),
// "needed_later": the first cases that reached for a deferred package, "stopped": cases stopped twice.
// Pyodide runs in a worker thread; this thread interrupts a case that has used more than the limit of the
// processor's time (this process's, which the case's thread spends: a loaded machine slows the clock's
// time, not this), and the case is run again with eight times the limit; stopped again, it is "stopped".
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Worker, isMainThread, workerData } from "node:worker_threads";

if (isMainThread) {
  const [runtime, sources, cases, target] = process.argv.slice(2);
  const limit = JSON.parse(readFileSync(cases, "utf8")).limit * 1e6;   // microseconds of processor time
  // [0] Pyodide's interrupt, [1] cases begun, [2] one runs, [3] its limit's factor
  const shared = new Int32Array(new SharedArrayBuffer(16));
  const worker = new Worker(new URL(import.meta.url), { workerData: { runtime, sources, cases, target, shared } });
  const used = () => { const { user, system } = process.cpuUsage(); return user + system; };
  let seen = -1;
  let since = used();
  const watch = setInterval(() => {   // only a case is ever interrupted: never the start, however slow the machine
    const begun = Atomics.load(shared, 1);
    if (begun !== seen) {
      seen = begun;
      since = used();
    } else if (Atomics.load(shared, 2) && used() - since > limit * Atomics.load(shared, 3)) {
      Atomics.store(shared, 0, 2);   // SIGINT: a KeyboardInterrupt in the case that runs
      since = used();
    }
  }, 100);
  worker.on("error", (error) => { console.error(error); process.exitCode = 1; });
  worker.on("exit", (code) => { clearInterval(watch); if (code) process.exitCode = code; });
} else {
  const { runtime, sources, cases, target, shared } = workerData;
  const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
  const pyodide = await loadPyodide({ indexURL: `${runtime}/`, stdout: () => {}, stderr: (line) => console.error(line) });
  pyodide.setInterruptBuffer(shared.subarray(0, 1));
  pyodide.FS.writeFile("/tmp/sources.zip", readFileSync(sources));
  pyodide.FS.writeFile("/tmp/cases.json", readFileSync(cases));
  pyodide.globals.set("begin_case", (factor) => {
    Atomics.store(shared, 3, factor); Atomics.add(shared, 1, 1); Atomics.store(shared, 2, 1);
  });
  pyodide.globals.set("end_case", () => { Atomics.store(shared, 2, 0); Atomics.store(shared, 0, 0); });
  pyodide.runPython(`
import json, os, sys, zipfile

HOME = "/home/pyodide/course"
STDLIB = next(path for path in sys.path if path.endswith(".zip"))   # /lib/python3XY.zip: Pyodide starts from it


def loaded():
    """The files of every module imported so far (built-in and frozen ones have none)."""
    found = set()
    for module in list(sys.modules.values()):
        path = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        for root, folder in (("stdlib", STDLIB), ("course", HOME)):
            if path.startswith(folder + "/"):
                found.add((root, path[len(folder) + 1:]))
    return sorted(found)


class Deferred(BaseException):
    """A first case reached for a package the page fetches later."""


class OutOfReach:
    def __init__(self, packages):
        self.packages = set(packages)

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.packages:
            raise Deferred(name)


def run(case):
    op, args = case
    for factor in (1, 8):                # stopped once: again, with eight times the limit
        begin_case(factor)
        try:
            getattr(grader.web, op)(*args)
            return
        except KeyboardInterrupt:        # past the limit: stopped from the other thread
            pass
        finally:
            end_case()                   # an interrupt asked as the case ended is dropped
    trace["stopped"].append(case)


cases = json.load(open("/tmp/cases.json"))
zipfile.ZipFile("/tmp/sources.zip").extractall(HOME)   # as the worker unpacks the grader's zip
sys.path.insert(0, HOME)
os.environ["GRADER_CACHE_DIR"] = HOME + "/cache"
import checker_boot                                      # before its finder is in place: the start
trace = {"start": loaded(), "needed_later": [], "stopped": []}
out_of_reach = OutOfReach(cases["deferred"])
sys.meta_path.insert(0, out_of_reach)
import grader.web
for case in cases["first"]:
    try:
        run(case)
    except Deferred:
        trace["needed_later"].append(case)
trace["first"] = loaded()
sys.meta_path.remove(out_of_reach)
for case in trace["needed_later"] + cases["later"]:
    run(case)
trace["later"] = loaded()
with open("/tmp/trace.json", "w") as out:
    json.dump(trace, out)
`);
  writeFileSync(target, pyodide.FS.readFile("/tmp/trace.json"));
}
