/* The course's grader in a Web Worker: Pyodide, then one zip built with the site (the grader
   package, SymPy, mpmath and the fast path's reference table), all from this site, nothing from
   any other host. checker.js starts it when an answer box is first focused and terminates it when
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
    pyodide.unpackArchive(await download, "zip", { extractDir: HOME });
    pyodide.globals.set("course_home", HOME);
    pyodide.runPython(
      "import os, sys\n" +
      "sys.path.insert(0, course_home)\n" +
      "os.environ['GRADER_CACHE_DIR'] = course_home + '/cache'\n"
    );
    web = pyodide.pyimport("grader.web");
    web.announce_import("sympy", () => post({ type: "sympy" }));
    post({ type: "ready" });
  } catch (error) {
    post({ type: "failed", error: String((error && error.message) || error).split("\n")[0] });
  }
}

function run({ id, op, args }) {
  let reply;
  try {
    reply = JSON.parse(web[op](...args));
  } catch (error) {   // grader.cli answers every error itself: this would be a bug in the worker
    reply = { code: 3, result: null, error: String((error && error.message) || error), text: "" };
  }
  post({ type: "result", id, reply });
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") init(message);
  else if (message.type === "job") run(message);
};
