/* The in-page checker's loading: the Web Worker that runs the grader (worker.js), when it starts, the
   progress line. The hook (hooks/checker/publish.py) joins this file and checker.js into the one script every
   page loads, inside one function: checkerRunner() makes the worker's runner, once per visit; checkerView()
   shows its state on one page; checkerPage() (checker.js) is that page's answer boxes.

   One runner for the visit: the theme's instant navigation swaps one page for the next without unloading
   the document, so the worker, and the grader started in it, live on from page to page. Each page is attached
   when the theme says it is in place (its `document$`), and the page before it released.

   The worker starts as soon as an exercise scrolls into view (a reader who got there will likely check an
   answer), or when an answer or seed box is focused first; only the latter if the reader asked the
   browser to save data. While the files download, the progress line says how many megabytes of how many
   have arrived, a quarter at a time (it is a polite live region: a screen reader says each quarter, not
   each percent), and a bar beside it moves with every chunk (hidden from screen readers: the line says it). */

function checkerRunner({ script }) {
  const base = new URL(".", script.src);
  const limit = Number(script.dataset.limit) * 1000;
  const sympyBudget = Number(script.dataset.sympyBudget) * 1000;
  const saveData = Boolean(navigator.connection && navigator.connection.saveData);

  /* --- the worker: started once a visit, restarted after a timeout. ``said``: what it last said of itself
     (a status key and its values), for the page attached next; ``view``: the page that shows it */

  const runner = {
    worker: null, ready: false, failed: "", queue: [], busy: null, timer: 0, jobs: 0, sympy: null, waiting: false,
    started: "",   // how the grader started: "fresh", or "snapshot" (the started grader kept by an earlier page)
    said: { key: "", values: {} }, view: null, shown: -1, saveData,

    start() {
      if (this.worker) return;
      this.failed = "";
      this.ready = false;
      this.sympy = null;
      this.started = "";
      this.mark();
      try {   // a page opened from file:// may not start a worker: the command line stays
        this.worker = new Worker(new URL(script.dataset.worker, base));
      } catch (error) {
        this.fail(String((error && error.message) || error));
        return;
      }
      this.worker.onmessage = (event) => this.receive(event.data);
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.fail(event.message || "worker error");
      };
      this.worker.postMessage({ type: "init", saveData });
      this.shown = -1;
      this.status("starting");
    },

    run(op, args) {
      this.start();
      if (!this.worker) return Promise.resolve({ failed: this.failed });
      return new Promise((resolve) => {
        this.queue.push({ id: ++this.jobs, op, args, resolve });
        if (this.view) this.view.asked();
        this.pump();
      });
    },

    pump() {
      if (this.busy || !this.ready || !this.queue.length) return;
      this.busy = this.queue.shift();
      this.worker.postMessage({ type: "job", id: this.busy.id, op: this.busy.op, args: this.busy.args });
      this.arm(limit);
    },

    arm(ms) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.timeout(), ms);
    },

    receive(message) {
      if (message.type === "progress") {   // a download the reader waits for; not one in the background
        if (!this.ready || this.waiting) this.progress(message.done, message.total);
      } else if (message.type === "importing") {   // downloaded and started: the grader is imported
        this.status("importing");
      } else if (message.type === "ready") {
        this.ready = true;
        this.started = message.start || "";
        this.mark();
        this.status("ready");
        this.pump();
      } else if (message.type === "failed") {
        this.fail(message.error);
      } else if (message.type === "loading") {   // a check waits for a zip, or for the warm-up: not the answer's time
        if (!message.quiet) {
          this.waiting = true;
          this.shown = -1;
          if (message.sympy) this.status("loading_sympy");
        }
        if (this.busy) this.arm(sympyBudget + limit);
      } else if (message.type === "sympy") {   // importing SymPy is not the answer's time (nor the reader's, warmed)
        this.sympy = message.background ? "warmed" : "loaded";
        this.mark();
        if (message.background) return;
        this.status("loading_sympy");
        if (this.busy) this.arm(sympyBudget + limit);
      } else if (message.type === "result" && this.busy && message.id === this.busy.id) {
        clearTimeout(this.timer);
        const job = this.busy;
        this.busy = null;
        if (this.said.key !== "ready") this.status("ready");
        this.waiting = false;
        job.resolve(message.reply);
        this.pump();
      }
    },

    stop() {
      clearTimeout(this.timer);
      if (this.worker) this.worker.terminate();
      this.worker = null;
      this.ready = false;
      this.waiting = false;
    },

    timeout() {
      const job = this.busy;
      this.busy = null;
      this.stop();
      job.resolve({ timeout: true });
      this.start();
      this.status("restarted");
    },

    fail(error) {
      this.stop();
      this.failed = error;
      this.status("failed", { error });
      const jobs = this.busy ? [this.busy, ...this.queue] : this.queue;
      this.busy = null;
      this.queue = [];
      jobs.forEach((job) => job.resolve({ failed: error }));
    },

    status(key, values = {}) {
      this.said = { key, values };
      if (this.view) this.view.status(key, values);
    },

    progress(done, total) {
      if (done >= total && !this.ready) this.status("starting");   // downloaded: Python starts
      else if (done < total) {
        const quarter = Math.floor((4 * done) / total);
        if (quarter !== this.shown && this.said.key !== "loading_sympy") {
          this.shown = quarter;
          this.status("loading", { done, total });
        }
        if (this.view) this.view.bars(done, total);
      }
    },

    mark() {   // what the runtime has loaded, for the curious (and the tests): data-sympy="loaded" | "warmed",
      // and how it started: data-start="fresh" | "snapshot"
      if (this.view) this.view.mark(this.sympy, this.started);
    },
  };
  return runner;
}

/* --- one page's view of the runner: its progress lines, and when it starts the worker. Returns release(). */

function checkerView(runner, { panels, words, fill, waiting }) {
  const exercises = panels.filter((panel) => panel.matches(".course-checker-exercise"));
  const lineOf = (panel) => panel.querySelector(".course-checker__status");
  const megabytes = (panel, bytes) => new Intl.NumberFormat(panel.dataset.lang,
    { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1e6);
  /* a status's words on a panel: a download's megabytes in its language's numbers */
  const said = (panel, key, values) => fill(words(panel)[key], values.total
    ? { done: megabytes(panel, values.done), total: megabytes(panel, values.total) } : values);

  function bar(line) {   // the moving bar beside the line, made the first time it is needed
    if (!line.nextElementSibling || !line.nextElementSibling.matches("progress.course-checker__progress")) {
      const made = document.createElement("progress");
      made.className = "course-checker__progress";
      made.setAttribute("aria-hidden", "true");
      made.hidden = true;
      line.after(made);
    }
    return line.nextElementSibling;
  }

  /* the room the line takes: every status it says while the grader starts, in the same cell, unseen (checker.css),
     so that the tallest sets its height from the start and nothing below it moves as the words change; the
     download's own (a number of megabytes as long as any) with the bar's height under it */
  const ROOM = { starting: false, loading: true, loading_sympy: true, importing: false, ready: false, restarted: false };
  const LONGEST = { done: 888.8e6, total: 888.8e6 };
  function room(panel) {
    const line = lineOf(panel);
    if (line.previousElementSibling && line.previousElementSibling.matches(".course-checker__room")) return;
    const made = document.createElement("span");
    made.className = "course-checker__room";
    made.setAttribute("aria-hidden", "true");
    Object.entries(ROOM).forEach(([key, barred]) => {
      const words = document.createElement("span");
      words.textContent = said(panel, key, key === "loading" ? LONGEST : {});
      if (barred) words.dataset.bar = "";
      made.append(words);
    });
    line.before(made);
  }
  panels.forEach(room);

  const view = {
    status(key, values) {
      panels.forEach((panel) => {
        const line = lineOf(panel);
        line.textContent = key ? said(panel, key, values) : "";
        line.dataset.state = key;
        bar(line).hidden = !["loading", "loading_sympy"].includes(key);
      });
      waiting.say(key, values, said);
    },
    bars(done, total) {
      panels.forEach((panel) => {
        const moving = bar(lineOf(panel));
        moving.hidden = false;
        moving.max = total;
        moving.value = done;
      });
    },
    mark(sympy, started) {
      panels.forEach((panel) => {
        const line = lineOf(panel);
        if (sympy) line.dataset.sympy = sympy;
        else delete line.dataset.sympy;
        if (started) line.dataset.start = started;
        else delete line.dataset.start;
      });
    },
    asked() {   // a call was queued: the places that wait say how the checker is
      waiting.say(runner.said.key, runner.said.values, said);
    },
  };

  runner.view = view;
  if (runner.worker || runner.failed) {   // a page after the first: the runner as it is
    view.status(runner.said.key, runner.said.values);
    view.mark(runner.sympy, runner.started);
  }

  /* --- when: an exercise in view (unless the reader saves data), or the first focus of a box */

  const starter = (event) => {
    if (event.target.matches(".course-checker__answer, .course-checker__seed")) {
      document.removeEventListener("focusin", starter);
      runner.start();
    }
  };
  document.addEventListener("focusin", starter);
  let watcher = null;
  if (!runner.saveData && typeof IntersectionObserver === "function") {
    watcher = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        watcher.disconnect();
        runner.start();
      }
    });
    // an exercise in view, not the home page's progress table: there only Load answers needs the worker
    exercises.forEach((exercise) => watcher.observe(exercise));
    document.querySelectorAll(".course-checker").forEach((part) => watcher.observe(part));
  }

  return function release() {
    document.removeEventListener("focusin", starter);
    if (watcher) watcher.disconnect();
    if (runner.view === view) runner.view = null;
  };
}

/* --- the visit: one runner, each page attached as the theme puts it in place (``document$`` emits the document
   once it is loaded, and again after each instant navigation), the page before released */

(() => {
  const script = document.currentScript;
  if (!script || typeof Worker !== "function") return;
  const runner = checkerRunner({ script });
  let release = null;
  const attach = () => {
    if (release) release();
    release = checkerPage(runner, script);
  };
  const pages = window.document$;
  if (pages && typeof pages.subscribe === "function") pages.subscribe(attach);
  else attach();
})();
