/* The course's grader in a Web Worker: Pyodide, then one zip built with the site (the grader
   package, SymPy, mpmath and the fast path's reference table), all from this site, nothing from
   any other host; SymPy and mpmath are unpacked only when an exact form first needs them. checker.js starts it when an answer box is first focused and terminates it when
   a check runs past the time limit.

   Messages in:  {type: "init", runtime, archive}, then {type: "job", id, op: "check" | "show", args}
   Messages out: {type: "ready"}, {type: "failed", error}, {type: "sympy"} (SymPy starts loading),
                 {type: "result", id, reply} with reply as grader/web.py returns it. */
"use strict";

const HOME = "/home/pyodide/course";
let web = null;

const post = (message) => self.postMessage(message);

async function init({ runtime, archive }) {
  try {
    const download = fetch(archive).then((response) => {   // while Pyodide starts
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${archive}`);
      return response.arrayBuffer();
    });
    download.catch(() => {});   // reported below, once awaited
    importScripts(runtime + "pyodide.js");
    const pyodide = await self.loadPyodide({
      indexURL: runtime,
      stdout: () => {},
      stderr: (line) => console.warn(line),
    });
    pyodide.FS.writeFile(`${HOME}.zip`, new Uint8Array(await download));
    pyodide.globals.set("course_home", HOME);
    pyodide.globals.set("announce_sympy", () => post({ type: "sympy" }));
    // The grader and its table first: a plain number needs nothing else. SymPy and mpmath are
    // unpacked when SymPy is first imported, for the first exact form.
    pyodide.runPython(`
import importlib, os, sys, zipfile
sys.path.insert(0, course_home)
os.environ["GRADER_CACHE_DIR"] = course_home + "/cache"
course_zip = zipfile.ZipFile(course_home + ".zip")
course_first = ("grader/", "cache/")
course_zip.extractall(course_home, [n for n in course_zip.namelist() if n.startswith(course_first)])

def course_libraries():
    announce_sympy()
    course_zip.extractall(course_home, [n for n in course_zip.namelist() if not n.startswith(course_first)])
    importlib.invalidate_caches()

import grader.web
grader.web.announce_import("sympy", course_libraries)
`);
    web = pyodide.pyimport("grader.web");
    post({ type: "ready" });
  } catch (error) {
    post({ type: "failed", error: String((error && error.message) || error).split("\n")[0] });
  }
}

function run({ id, op, args }) {
  let reply;
  try {
    reply = JSON.parse(web[op](...args));
  } catch (error) {   // grader.cli.main answers every error itself: this would be a bug in the worker
    reply = { code: 3, result: null, error: String((error && error.message) || error), text: "" };
  }
  post({ type: "result", id, reply });
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") init(message);
  else if (message.type === "job") run(message);
};
