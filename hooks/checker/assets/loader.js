/* The in-page checker's loading: the Web Worker that runs the grader (worker.js), when it starts, the
   progress line. The hook (hooks/checker/publish.py) joins this file and checker.js into the one script a page
   loads, inside one function: checker.js calls checkerRunner() and uses what it returns, runner.run(op, args).

   The worker starts as soon as an exercise scrolls into view (a reader who got there will likely check an
   answer), or when an answer or seed box is focused first; only the latter if the reader asked the
   browser to save data. While the files download, the progress line says how many megabytes of how many
   have arrived, a quarter at a time (it is a polite live region: a screen reader says each quarter, not
   each percent), and a bar beside it moves with every chunk (hidden from screen readers: the line says it). */

function checkerRunner({ script, exercises, words, fill }) {
  const base = new URL(".", script.src);
  const limit = Number(script.dataset.limit) * 1000;
  const sympyBudget = Number(script.dataset.sympyBudget) * 1000;
  const saveData = Boolean(navigator.connection && navigator.connection.saveData);

  /* --- the worker: started once, restarted after a timeout */

  const runner = {
    worker: null, ready: false, failed: "", queue: [], busy: null, timer: 0, jobs: 0, sympy: false, waiting: false,

    start() {
      if (this.worker) return;
      this.failed = "";
      this.ready = false;
      this.sympy = false;
      mark("sympy", null);
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
      shown = -1;
      status("starting");
    },

    run(op, args) {
      this.start();
      if (!this.worker) return Promise.resolve({ failed: this.failed });
      return new Promise((resolve) => {
        this.queue.push({ id: ++this.jobs, op, args, resolve });
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
        if (!this.ready || this.waiting) progress(message.done, message.total, this.ready);
      } else if (message.type === "ready") {
        this.ready = true;
        status("ready");
        this.pump();
      } else if (message.type === "failed") {
        this.fail(message.error);
      } else if (message.type === "loading") {   // a check waits for a zip: not the answer's time
        this.waiting = true;
        shown = -1;
        if (message.sympy) status("loading_sympy");
        if (this.busy) this.arm(sympyBudget + limit);
      } else if (message.type === "sympy") {   // loading SymPy is not the answer's time
        this.sympy = true;
        status("loading_sympy");
        mark("sympy", "loaded");
        if (this.busy) this.arm(sympyBudget + limit);
      } else if (message.type === "result" && this.busy && message.id === this.busy.id) {
        clearTimeout(this.timer);
        const job = this.busy;
        this.busy = null;
        if (this.sympy || this.waiting) status("ready");
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
      status("restarted");
    },

    fail(error) {
      this.stop();
      this.failed = error;
      status("failed", { error });
      const jobs = this.busy ? [this.busy, ...this.queue] : this.queue;
      this.busy = null;
      this.queue = [];
      jobs.forEach((job) => job.resolve({ failed: error }));
    },
  };

  /* --- the progress line */

  function status(key, values = {}) {
    exercises.forEach((exercise) => {
      const line = exercise.querySelector(".course-checker__status");
      line.textContent = fill(words(exercise)[key], values);
      line.dataset.state = key;
      bar(line).hidden = !["loading", "loading_sympy"].includes(key);
    });
  }

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

  let shown = -1;   // the quarter the line says (the bar says every chunk)
  function progress(done, total, ready) {
    const state = exercises[0].querySelector(".course-checker__status").dataset.state;
    if (done >= total && !ready) status("starting");   // downloaded: Python starts
    else if (done < total) {
      const quarter = Math.floor((4 * done) / total);
      if (quarter !== shown && state !== "loading_sympy") {
        shown = quarter;
        exercises.forEach((exercise) => {
          const megabytes = new Intl.NumberFormat(exercise.dataset.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
          const line = exercise.querySelector(".course-checker__status");
          line.textContent = fill(words(exercise).loading, { done: megabytes.format(done / 1e6), total: megabytes.format(total / 1e6) });
          line.dataset.state = "loading";
        });
      }
      exercises.forEach((exercise) => {
        const moving = bar(exercise.querySelector(".course-checker__status"));
        moving.hidden = false;
        moving.max = total;
        moving.value = done;
      });
    }
  }

  /* what the runtime has loaded, for the curious (and the tests): data-sympy="loaded" */
  function mark(name, value) {
    exercises.forEach((exercise) => {
      const line = exercise.querySelector(".course-checker__status");
      if (value === null) delete line.dataset[name];
      else line.dataset[name] = value;
    });
  }

  /* --- when: an exercise in view (unless the reader saves data), or the first focus of a box */

  const starter = (event) => {
    if (event.target.matches(".course-checker__answer, .course-checker__seed")) {
      document.removeEventListener("focusin", starter);
      runner.start();
    }
  };
  document.addEventListener("focusin", starter);
  if (!saveData && typeof IntersectionObserver === "function") {
    const watcher = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        watcher.disconnect();
        runner.start();
      }
    });
    // an exercise in view, not the home page's progress table: there only Load answers needs the worker
    exercises.filter((panel) => panel.matches(".course-checker-exercise")).forEach((exercise) => watcher.observe(exercise));
    document.querySelectorAll(".course-checker").forEach((part) => watcher.observe(part));
  }

  return runner;
}
