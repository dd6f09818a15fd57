/* The in-page checker's loading: the Web Worker that runs the grader, when it starts, the progress
   line. The hook (hooks/checker.py) joins this file and checker.js into the one script a page loads,
   inside one function: checker.js calls checkerRunner() and uses what it returns, runner.run(op, args). */

function checkerRunner({ script, exercises, words, fill }) {
  const base = new URL(".", script.src);
  const limit = Number(script.dataset.limit) * 1000;
  const sympyBudget = Number(script.dataset.sympyBudget) * 1000;

  /* --- the worker: started once, restarted after a timeout */

  const runner = {
    worker: null, ready: false, failed: "", queue: [], busy: null, timer: 0, jobs: 0, sympy: false,

    start() {
      if (this.worker) return;
      this.failed = "";
      this.ready = false;
      this.sympy = false;
      mark("sympy", null);
      try {   // a page opened from file:// may not start a worker: the command line stays
        this.worker = new Worker(new URL(`worker.js?v=${script.dataset.version}`, base));
      } catch (error) {
        this.fail(String((error && error.message) || error));
        return;
      }
      this.worker.onmessage = (event) => this.receive(event.data);
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.fail(event.message || "worker error");
      };
      this.worker.postMessage({ type: "init", runtime: new URL("pyodide/", base).href,
                                archive: new URL(script.dataset.archive, base).href });
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
      if (message.type === "ready") {
        this.ready = true;
        status("ready");
        this.pump();
      } else if (message.type === "failed") {
        this.fail(message.error);
      } else if (message.type === "sympy") {   // loading SymPy is not the answer's time
        this.sympy = true;
        status("loading_sympy");
        mark("sympy", "loaded");
        if (this.busy) this.arm(sympyBudget + limit);
      } else if (message.type === "result" && this.busy && message.id === this.busy.id) {
        clearTimeout(this.timer);
        const job = this.busy;
        this.busy = null;
        if (this.sympy) status("ready");
        job.resolve(message.reply);
        this.pump();
      }
    },

    stop() {
      clearTimeout(this.timer);
      if (this.worker) this.worker.terminate();
      this.worker = null;
      this.ready = false;
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
    });
  }

  /* what the runtime has loaded, for the curious (and the tests): data-sympy="loaded" */
  function mark(name, value) {
    exercises.forEach((exercise) => {
      const line = exercise.querySelector(".course-checker__status");
      if (value === null) delete line.dataset[name];
      else line.dataset[name] = value;
    });
  }

  /* --- when: on the first focus of an answer or seed box */

  const starter = (event) => {
    if (event.target.matches(".course-checker__answer, .course-checker__seed")) {
      document.removeEventListener("focusin", starter);
      runner.start();
    }
  };
  document.addEventListener("focusin", starter);

  return runner;
}
