/* worker.js without a browser (Node's test runner): a check that meets a later zip not yet fetched fetches it, writes
   it where the grader looks and is made again; a zip the grader still asks for once written is an error, not a
   loop. The worker's own text runs in a context of its own, with a stand-in for the grader Python holds (`boot`)
   and for Pyodide's file system; what the tests read is what the worker posts to the page. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import vm from "node:vm";

const WORKER = readFileSync(new URL("../../hooks/checker/assets/worker.js", import.meta.url), "utf8");
const SYMPY = "sympy-0123abcd.zip";

/* the worker, given `answers` (what the grader's call returns, each time it is made, as the zips written so far
   allow) and a network that has every file; saveData: no warm-up in the background after a verdict */
function startWorker(answers) {
  const posted = [];
  const fetched = [];
  const written = [];
  const context = {
    location: { href: "http://127.0.0.1:8000/assets/checker/worker-0123abcd.js" },
    postMessage: (message) => posted.push(JSON.parse(JSON.stringify(message))),   // as the page receives it: a copy
    fetch: async (url) => {
      fetched.push(String(url));
      return new Response(new Uint8Array([80, 75, 5, 6]));
    },
    Response, ReadableStream, URL, setTimeout, clearTimeout, console,
  };
  context.self = context;
  vm.createContext(context);
  vm.runInContext(WORKER, context);
  let made = 0;
  context.answer = () => {
    made += 1;
    if (made > 5) throw new Error(`the call was made ${made} times`);
    return JSON.stringify(answers(written));
  };
  context.writeFile = (path) => written.push(path);
  vm.runInContext(`
    FILES.sympy = ${JSON.stringify(SYMPY)};
    FILES.sizes = { ${JSON.stringify(SYMPY)}: 4 };
    boot = { call: () => self.answer() };
    pyodide = { FS: { writeFile: (path) => self.writeFile(path) } };
    saveData = true;`, context);
  const check = async () => {
    context.onmessage({ data: { type: "job", id: 1, op: "check", args: ["ex", "part", "sqrt(2)"] } });
    for (let waited = 0; waited < 5000; waited += 10) {
      const result = posted.find((message) => message.type === "result");
      if (result) return result.reply;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error("no result in 5 s");
  };
  return { check, posted, fetched, written, made: () => made };
}

test("a check that needs SymPy's zip fetches it once, writes it where the grader looks, and gets its verdict", async () => {
  const worker = startWorker((written) => (written.length ? { score: 1, note: "" } : { missing: SYMPY }));
  assert.deepEqual(await worker.check(), { score: 1, note: "" });
  assert.deepEqual(worker.fetched, [`http://127.0.0.1:8000/assets/checker/${SYMPY}`]);
  assert.deepEqual(worker.written, [`/home/pyodide/course-later/${SYMPY}`]);
  assert.deepEqual(worker.posted.filter((message) => message.type === "loading"), [{ type: "loading", sympy: true }]);
  assert.equal(worker.made(), 2);
});

test("a zip the grader still asks for once it is written is a failed check that names it, not a call made forever", async () => {
  const worker = startWorker(() => ({ missing: SYMPY }));
  const reply = await worker.check();
  assert.equal(reply.failed, `${SYMPY} is still missing after it was written`);
  assert.equal(worker.fetched.length, 1);
  assert.equal(worker.made(), 2);
  assert.equal(worker.posted.filter((message) => message.type === "loading").length, 1);
});
