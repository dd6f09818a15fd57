/* The course's grader in a Web Worker: Pyodide, then the grader, all from this site, nothing from any
   other host. loader.js starts it (when an exercise scrolls into view) and terminates it when a check
   runs past the time limit.

   FILES is written in by the build (hooks/checker/publish.py): the files' URLs, relative to this script, each
   named by the hash of its content, and their sizes. A first verdict needs the runtime (pyodide.js,
   pyodide.asm.js, pyodide.asm.wasm), the standard library's first part and the grader's zip (the
   grader, its table, the import hook: hooks/checker/pack.py); they are fetched at once, side by side,
   and their bytes counted for the progress line. The later zips (SymPy's; the rest) are fetched when
   a module in them is first imported (checker_boot.py stops the call; it is made again once the zip is
   here), and SymPy's also in the background once the first verdict is shown (unless the reader asked
   to save data), its modules then imported one by one while no call waits (checker_boot.warm), so that
   the first exact form is judged as fast as a plain number. Every file is kept in the Cache Storage, one
   copy for the whole site: a later visit reads it from there without asking the network.

   Messages in:  {type: "init", saveData}, then {type: "job", id, op: "check" | "show" | ..., args}
   Messages out: {type: "progress", done, total} (bytes), {type: "importing"} (Python is up: the grader is
                 imported), {type: "ready"}, {type: "failed", error}, {type: "loading", sympy, quiet} (a check waits
                 for a later zip, SymPy's or not; quiet: for the warm-up's module in hand), {type: "sympy",
                 background} (the first module of SymPy's zip is imported, for a check or by the warm-up: importing
                 SymPy takes a moment), {type: "result", id, reply} with reply as grader/web.py returns it. */
"use strict";

const FILES = {};   // replaced by the build
const HOME = "/home/pyodide/course";
const LATER = `${HOME}-later`;
const STORE = "course-checker";
const here = (name) => new URL(name, self.location.href).href;
const post = (message) => self.postMessage(message);
const nativeFetch = self.fetch.bind(self);

let pyodide = null;
let boot = null;
let store = null;    // the Cache Storage's cache, where the browser offers one (https, localhost)
let saveData = false;
let warming = false;   // SymPy's zip is warming up, a package of it not imported yet: a check may import it
let calls = 0;         // jobs received and not yet answered: the warm-up gives way to them
const later = new Map();   // zip name -> the promise of its being written where checker_boot.py looks

/* --- bytes: counted as they arrive, for the progress line */

const progress = { done: 0, total: 0, told: 0 };

function count(bytes) {
  progress.done += bytes;
  const now = Date.now();
  if (now - progress.told > 100 || progress.done >= progress.total) {
    progress.told = now;
    post({ type: "progress", done: progress.done, total: progress.total });
  }
}

function counted(response) {   // read at once (not when Pyodide gets to it): the download goes on meanwhile
  const reader = response.body.getReader();
  const body = new ReadableStream({
    start(controller) {
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          count(value.byteLength);
          controller.enqueue(value);
        }
        controller.close();
      })().catch((error) => controller.error(error));
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/* --- files: from the Cache Storage, else from the network (and into the Cache Storage) */

async function openStore() {
  try {
    store = await caches.open(STORE);
    const current = new Set(Object.keys(FILES.sizes).map(here));
    const folder = here("./");
    for (const request of await store.keys()) {   // an earlier build's files: not needed again
      if (request.url.startsWith(folder) && !current.has(request.url)) store.delete(request);
    }
  } catch (error) {
    store = null;   // no Cache Storage here: the HTTP cache, as the host's headers allow
  }
}

async function file(name) {
  const url = here(name);
  progress.total += FILES.sizes[name];
  const kept = store && (await store.match(url).catch(() => undefined));
  if (kept) {
    count(FILES.sizes[name]);
    return kept;
  }
  const response = await nativeFetch(url);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${url}`);
  if (store) store.put(url, response.clone()).catch(() => {});
  return counted(response);
}

const bytes = async (response) => new Uint8Array(await (await response).arrayBuffer());

async function script(name) {   // importScripts reads no Cache Storage: the text, from a blob
  const url = URL.createObjectURL(await (await file(name)).blob());
  try {
    importScripts(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/* --- the later zips */

function fetchLater(name) {
  if (!later.has(name)) {
    const written = bytes(file(name)).then((data) => pyodide.FS.writeFile(`${LATER}/${name}`, data));
    later.set(name, written);
    written.catch(() => later.delete(name));   // a failed fetch is tried again by the next check
  }
  return later.get(name);
}

/* grader.web's op, made again after each later zip it waits for */
async function call(op, args) {
  for (;;) {
    const reply = JSON.parse(boot.call(op, JSON.stringify(args)));
    if (!reply.missing) return reply;
    post({ type: "loading", sympy: reply.missing === FILES.sympy });
    await fetchLater(reply.missing);
  }
}

/* --- start */

function said(error) {   // one line: a Python error's last (the exception), a JavaScript error's message
  const lines = String((error && error.message) || error).trim().split("\n");
  return lines[lines.length - 1];
}

async function init(message) {
  saveData = Boolean(message.saveData);
  try {
    await openStore();
    const runtime = FILES.runtime;
    // all at once: the bandwidth is shared, and the wasm compiles while it arrives
    const early = new Map([`${runtime}pyodide.asm.wasm`, FILES.stdlib].map((name) => [here(name), file(name)]));
    early.forEach((response) => response.catch(() => {}));   // reported where awaited
    const grader = bytes(file(FILES.grader));
    grader.catch(() => {});
    self.fetch = (input, options) => {   // Pyodide asks for the wasm and the standard library itself
      const url = new URL(String(input instanceof Request ? input.url : input), self.location.href).href;
      const response = early.get(url);
      early.delete(url);
      return response || nativeFetch(input, options);
    };
    await Promise.all([script(`${runtime}pyodide.js`), script(`${runtime}pyodide.asm.js`)]);
    pyodide = await self.loadPyodide({
      indexURL: here(runtime),
      stdLibURL: here(FILES.stdlib),
      lockFileContents: FILES.lock,   // no package is loaded: the lock file is not fetched
      stdout: () => {},
      stderr: (line) => console.warn(line),
    });
    self.fetch = nativeFetch;
    pyodide.FS.mkdirTree(LATER);
    pyodide.FS.writeFile(`${HOME}.zip`, await grader);
    pyodide.globals.set("course_home", HOME);
    pyodide.globals.set("course_later", LATER);
    pyodide.globals.set("course_opened", (name) => {
      if (name === FILES.sympy) post({ type: "sympy", background: warming && !calls });
    });
    pyodide.runPython(`
import os, sys, zipfile
zipfile.ZipFile(course_home + ".zip").extractall(course_home)
os.remove(course_home + ".zip")
sys.path.insert(0, course_home)
os.environ["GRADER_CACHE_DIR"] = course_home + "/cache"
import checker_boot
checker_boot.start(course_home, course_later, course_opened)
`);
    boot = pyodide.pyimport("checker_boot");
    post({ type: "importing" });
    await call("", []);   // import grader.web (and what it needs)
    post({ type: "ready" });
  } catch (error) {
    post({ type: "failed", error: said(error) });
  }
}

async function run({ id, op, args }) {
  let reply;
  if (warming) post({ type: "loading", sympy: true, quiet: true });   // the time a package left to import may take
  try {
    reply = await call(op, args);
  } catch (error) {   // a later zip that could not be fetched, or a bug in the worker
    reply = { failed: said(error) };
  }
  post({ type: "result", id, reply });
  if (!saveData && !warmed) soon();   // in the background, from now on
}

/* SymPy's zip fetched, then its modules imported one at a time, each when no call waits: a check that comes
   meanwhile goes first, and waits at most for the module in hand (the first, SymPy's package, imports most of
   it). It begins once no call has come for a moment: the answers checked one after the other go first. */
const WARM_AFTER = 1500;   // ms without a call
let warmed = null;   // the warm-up begun
let idle = 0;
function soon() {
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (calls) return;   // the next answer's result schedules it again
    warmed = warm().catch(() => {});
  }, WARM_AFTER);
}

async function warm() {
  await fetchLater(FILES.sympy);
  const names = JSON.parse(boot.warm_list(FILES.sympy));
  let packages = names.filter((name) => !name.includes(".")).length;   // each imports its modules: the long steps
  warming = true;
  try {
    for (const name of names) {
      while (calls) await queue;
      boot.warm(name);
      if (!name.includes(".")) packages -= 1;
      warming = packages > 0;   // a check that comes now may import one left (SymPy's takes seconds: not the answer's)
      await new Promise((resolve) => setTimeout(resolve, 0));   // a message that came meanwhile is read now
    }
  } finally {
    warming = false;
  }
}

let queue = Promise.resolve();   // one call at a time, in order
self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") queue = queue.then(() => init(message));
  else if (message.type === "job") {
    calls += 1;
    queue = queue.then(() => run(message)).finally(() => { calls -= 1; });
  }
};
