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

   The started grader is kept there too: once it is warmed up (SymPy imported; with save-data, once it is idle
   after its first verdict), a memory snapshot of Pyodide (its private _makeSnapshot / makeMemorySnapshot /
   _loadSnapshot options, pyodide 0.29) is put beside the files, under this worker's content-hashed name, so a
   new build never reads an old one (and openStore deletes it). A page opened anew starts from it: the wasm
   memory as it was, Python and the grader imported; only the files Python reads later (the grader's folder,
   the later zips) are written again. A snapshot that does not load (another Pyodide build, a broken entry)
   is deleted and the grader starts as it did the first time.

   Messages in:  {type: "init", saveData}, then {type: "job", id, op: "check" | "show" | ..., args}
   Messages out: {type: "progress", done, total} (bytes), {type: "importing"} (Python is up: the grader is
                 imported), {type: "ready", start: "fresh" | "snapshot"}, {type: "failed", error}, {type: "loading", sympy, quiet} (a check waits
                 for a later zip, SymPy's or not; quiet: for the warm-up's module in hand), {type: "sympy",
                 background} (the first module of SymPy's zip is imported, for a check or by the warm-up: importing
                 SymPy takes a moment), {type: "result", id, reply} with reply as grader/web.py returns it. */
"use strict";

const FILES = {};   // replaced by the build
const HOME = "/home/pyodide/course";
const LATER = `${HOME}-later`;
const STORE = "course-checker";
const SNAPSHOT = self.location.href.replace(/\.js(\?.*)?$/, ".snapshot");   // the started grader, this build's
const here = (name) => new URL(name, self.location.href).href;
const post = (message) => self.postMessage(message);
const nativeFetch = self.fetch.bind(self);

let pyodide = null;
let boot = null;
let store = null;    // the Cache Storage's cache, where the browser offers one (https, localhost)
let saveData = false;
let started = "";      // "fresh" | "snapshot": how the grader started in this worker
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
    const current = new Set([...Object.keys(FILES.sizes).map(here), SNAPSHOT]);
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

/* grader.web's op, made again after each later zip it waits for. A zip asked for again once it is written would
   be asked for forever (and each "loading" gives the page's time limit more time): it is an error instead. */
async function call(op, args) {
  const written = new Set();
  for (;;) {
    const reply = JSON.parse(boot.call(op, JSON.stringify(args)));
    if (!reply.missing) return reply;
    if (written.has(reply.missing)) throw new Error(`${reply.missing} is still missing after it was written`);
    post({ type: "loading", sympy: reply.missing === FILES.sympy });
    await fetchLater(reply.missing);
    written.add(reply.missing);
  }
}

/* --- start */

function said(error) {   // one line: a Python error's last (the exception), a JavaScript error's message
  const lines = String((error && error.message) || error).trim().split("\n");
  return lines[lines.length - 1];
}

/* the one JavaScript function Python holds (the finder's ``opened``), reached as ``js.courseOpened``: a snapshot
   names it by that path, and a restored grader finds this worker's (a function handed to Python by
   pyodide.globals.set leaves a hole in Pyodide's table of JavaScript references, which no snapshot can name) */
self.courseOpened = (name) => {
  if (name === FILES.sympy) post({ type: "sympy", background: warming && !calls });
};

/* Pyodide, from a snapshot (its bytes) or anew: the runtime and the standard library fetched side by side */
async function runtime(snapshot) {
  const folder = FILES.runtime;
  // all at once: the bandwidth is shared, and the wasm compiles while it arrives
  const early = new Map([`${folder}pyodide.asm.wasm`, FILES.stdlib].map((name) => [here(name), file(name)]));
  early.forEach((response) => response.catch(() => {}));   // reported where awaited
  self.fetch = (input, options) => {   // Pyodide asks for the wasm and the standard library itself
    const url = new URL(String(input instanceof Request ? input.url : input), self.location.href).href;
    const response = early.get(url);
    early.delete(url);
    return response || nativeFetch(input, options);
  };
  try {
    if (typeof self.loadPyodide !== "function") {
      await Promise.all([script(`${folder}pyodide.js`), script(`${folder}pyodide.asm.js`)]);
    }
    return await self.loadPyodide({
      indexURL: here(folder),
      stdLibURL: here(FILES.stdlib),
      lockFileContents: FILES.lock,   // no package is loaded: the lock file is not fetched
      stdout: () => {},
      stderr: (line) => console.warn(line),
      ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: Boolean(store) }),
    });
  } finally {
    self.fetch = nativeFetch;
  }
}

/* the grader's folder (and the folder of later zips), as Python reads them */
function unpack(grader) {
  pyodide.FS.mkdirTree(LATER);
  pyodide.FS.writeFile(`${HOME}.zip`, grader);
  pyodide.globals.set("course_home", HOME);
  pyodide.runPython(`
import os, zipfile
zipfile.ZipFile(course_home + ".zip").extractall(course_home)
os.remove(course_home + ".zip")
`);
}

async function fresh(grader) {
  pyodide = await runtime(null);
  unpack(await grader);
  pyodide.globals.set("course_later", LATER);
  pyodide.runPython(`
import os, sys
import js
sys.path.insert(0, course_home)
os.environ["GRADER_CACHE_DIR"] = course_home + "/cache"
import checker_boot
checker_boot.start(course_home, course_later, js.courseOpened)
`);
  boot = pyodide.pyimport("checker_boot");
  post({ type: "importing" });
  await call("", []);   // import grader.web (and what it needs)
  started = "fresh";
}

/* a snapshot as makeMemorySnapshot lays it out: a header (its own length in the second word), then the wasm
   memory, whole 64 KiB pages. Checked before Pyodide gets it: a memory that cannot be made stops
   loadPyodide without an answer; a wrong header or build is an error it throws. */
function whole(snapshot) {
  const header = snapshot.byteLength >= 16 ? new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1] : 0;
  const memory = snapshot.byteLength - header;
  if (!header || memory <= 0 || memory % 65536) throw new Error("not a whole snapshot");
  return snapshot;
}

/* the snapshot kept by an earlier page of this build: true when the grader is up from it */
async function restored(grader) {
  const kept = store && (await store.match(SNAPSHOT).catch(() => undefined));
  if (!kept) return false;
  try {
    pyodide = await runtime(whole(new Uint8Array(await kept.arrayBuffer())));
    unpack(await grader);
    boot = pyodide.pyimport("checker_boot");
    await call("", []);   // grader.web is imported already: a check that answers
    started = "snapshot";
    if (pyodide.runPython("'sympy' in __import__('sys').modules")) post({ type: "sympy", background: true });
    return true;
  } catch (error) {   // another Pyodide build, a broken entry: deleted, and the grader started anew
    console.warn(`the grader's snapshot was not used: ${said(error)}`);
    await store.delete(SNAPSHOT).catch(() => {});
    pyodide = null;
    boot = null;
    return false;
  }
}

async function init(message) {
  saveData = Boolean(message.saveData);
  try {
    await openStore();
    const grader = bytes(file(FILES.grader));
    grader.catch(() => {});
    if (!(await restored(grader))) await fresh(grader);
    post({ type: "ready", start: started });
  } catch (error) {
    post({ type: "failed", error: said(error) });
  }
}

/* the started grader into the Cache Storage, once, between two calls (a check that comes meanwhile waits for it) */
let snapped = false;
async function snapshot() {
  if (snapped || started !== "fresh" || !store || calls) return;
  snapped = true;
  try {
    const memory = pyodide.makeMemorySnapshot();
    await store.put(SNAPSHOT, new Response(memory, { headers: { "Content-Type": "application/octet-stream" } }));
  } catch (error) {
    console.warn(`no snapshot of the grader: ${said(error)}`);
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
  else if (saveData || done) keep();
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
    warmed = warm().then(() => { done = true; keep(); }, () => {});
  }, WARM_AFTER);
}

/* the snapshot, once no call has come for a moment (after the warm-up, or with save-data after a verdict) */
let done = false;   // the warm-up is over
let keeping = 0;
function keep() {
  if (snapped || started !== "fresh") return;
  clearTimeout(keeping);
  keeping = setTimeout(() => {
    if (!calls) queue = queue.then(snapshot);   // else the next call's result schedules it again
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
