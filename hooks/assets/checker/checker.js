/* Check an answer on the page: the course's grader (Python) runs in a Web Worker, offline; the student's
   work is kept in this browser.

   Loaded on pages with an exercise, and on each locale's home page (its progress); hooks/checker.py adds it,
   hooks/workspace.py writes the markup, hidden: this shows it. Nothing heavy loads until an answer or seed box
   is first focused: then the worker starts Pyodide and unpacks the grader. One check runs at a time; one that
   passes the time limit has its worker terminated and restarted, and its verdict is the one grader check gives
   a check that runs out of time. Verdicts are grader/web.py's replies: grader check --format json.

   The work: each answer, the seed in use and each part's last verdict are kept in localStorage, per site,
   locale, exercise and seed, and put back when the page opens; a value that is not the shape this script
   writes is ignored. Without storage (full, turned off) the page works and says once that nothing is kept.
   "Download my answers" writes them as the file grader submit takes; "Load answers" reads one back through
   the grader's own reader. The seed is the course's (the student's id): one for every exercise of a locale. */
(() => {
  "use strict";

  const script = document.currentScript;
  const exercises = [...document.querySelectorAll(".course-checker-exercise")];
  const progress = document.querySelector(".course-progress");
  const panels = [...exercises, progress].filter(Boolean);   // where the words, the status and the work are
  if (!script || !panels.length || typeof Worker !== "function") return;

  const base = new URL(".", script.src);
  const limit = Number(script.dataset.limit) * 1000;
  const sympyBudget = Number(script.dataset.sympyBudget) * 1000;
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

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

  /* --- words */

  const parsed = new WeakMap();
  const words = (panel) => {
    if (!parsed.has(panel)) parsed.set(panel, JSON.parse(panel.dataset.words));
    return parsed.get(panel);
  };

  function status(key, values = {}) {
    panels.forEach((panel) => {
      const line = panel.querySelector(".course-checker__status");
      line.textContent = fill(words(panel)[key], values);
      line.dataset.state = key;
    });
  }

  /* what the runtime has loaded, for the curious (and the tests): data-sympy="loaded" */
  function mark(name, value) {
    panels.forEach((panel) => {
      const line = panel.querySelector(".course-checker__status");
      if (value === null) delete line.dataset[name];
      else line.dataset[name] = value;
    });
  }

  /* --- the work kept in this browser: per site, locale, exercise and seed */

  const LANG = panels[0].dataset.lang;
  const COURSE = JSON.parse(panels[0].dataset.course);   // {exercise id: [part ids]}, in the course's order
  const PREFIX = `course-work:${new URL("../../", base).pathname}`;   // the site's root: assets/checker/ is under it
  const KEY = (name) => `${PREFIX}:${LANG}:${name}`;
  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  const isText = (value, most = 100000) => typeof value === "string" && value.length <= most;
  const isScore = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0;

  const store = {
    said: false,
    call(action) {
      try {
        return action(window.localStorage);
      } catch (error) {   // turned off (a SecurityError), or full (a QuotaExceededError)
        this.lost();
        return null;
      }
    },
    read: (name) => store.call((storage) => storage.getItem(KEY(name))),
    write: (name, value) => store.call((storage) => storage.setItem(KEY(name), value)),
    remove: (name) => store.call((storage) => storage.removeItem(KEY(name))),
    /* every key of this site, in every locale (clearing all) */
    all: () => store.call((storage) => Object.keys(storage).filter((key) => key.startsWith(`${PREFIX}:`))) || [],
    lost() {   // said once: the note about where answers are kept says they are not
      if (this.said) return;
      this.said = true;
      panels.forEach((panel) => {
        const note = panel.querySelector(".course-checker__kept");
        note.textContent = words(panel).not_kept;
        note.dataset.state = "lost";
      });
    },
  };

  const validVerdict = (v) => isObject(v) && isText(v.answer) && isScore(v.score) && Number.isInteger(v.max_score)
    && typeof v.correct === "boolean" && isText(v.note, 200) && isText(v.feedback) && isText(v.text)
    && (v.column === null || Number.isInteger(v.column)) && (v.read_as_mathml === undefined || isText(v.read_as_mathml));

  /* one exercise's work under one seed: {answers: {part: text}, verdicts: {part: verdict}, best: score | null} */
  function validWork(work, parts) {
    if (!isObject(work) || !isObject(work.answers) || !isObject(work.verdicts)) return false;
    if (!(work.best === null || isScore(work.best))) return false;
    return Object.entries(work.answers).every(([part, text]) => parts.includes(part) && isText(text))
      && Object.entries(work.verdicts).every(([part, verdict]) => parts.includes(part) && validVerdict(verdict));
  }

  /* an exercise's record, {v: 1, variants: {seed or "": work}}; a damaged or foreign one is none */
  function readRecord(id) {
    const parts = COURSE[id] || [];
    let record = null;
    try {
      record = JSON.parse(store.read(`exercise:${id}`));
    } catch (error) { /* not JSON: ignored */ }
    const valid = isObject(record) && record.v === 1 && isObject(record.variants)
      && Object.entries(record.variants).every(([seed, work]) => isText(seed, 1000) && validWork(work, parts));
    return valid ? record : { v: 1, variants: {} };
  }

  const records = new Map();   // the exercises of this page: what they hold, even where storage is lost
  const recordOf = (id) => {
    if (!records.has(id)) records.set(id, readRecord(id));
    return records.get(id);
  };
  const workIn = (record, seed) => record.variants[seed] || { answers: {}, verdicts: {}, best: null };
  const workOf = (id) => (records.has(id) ? workIn(records.get(id), course.seed) : workIn(readRecord(id), course.seed));

  function saveWork(id, change) {
    const record = recordOf(id);
    const work = workIn(record, course.seed);
    change(work);
    const empty = !Object.keys(work.answers).length && !Object.keys(work.verdicts).length && work.best === null;
    if (empty) delete record.variants[course.seed];
    else record.variants[course.seed] = work;
    if (Object.keys(record.variants).length) store.write(`exercise:${id}`, JSON.stringify(record));
    else store.remove(`exercise:${id}`);
  }

  /* the seed in use, the course's: "" for the lessons' own data */
  const course = { seed: "" };
  function readSeed() {
    let seed = "";
    try {
      seed = JSON.parse(store.read("seed")) || "";
    } catch (error) { /* ignored */ }
    return isText(seed, 1000) && !/[\u0000-\u001f\u007f]/.test(seed) ? seed : "";
  }
  function keepSeed(seed) {
    course.seed = seed;
    if (seed) store.write("seed", JSON.stringify(seed));
    else store.remove("seed");
  }

  const lastScore = (work) => Object.values(work.verdicts).reduce((sum, verdict) => sum + verdict.score, 0);
  const answered = (work) => Object.values(work.answers).some((text) => text.trim());
  const round = (x) => Math.round(x * 1000) / 1000;

  /* --- the file grader submit takes: TOML, one table per exercise, the seed when a variant is in use */

  const TOML_ESCAPES = { "\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };
  const tomlString = (text) => `"${text.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => TOML_ESCAPES[c]
    || `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
  const tomlKey = (key) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key));
  const shellWord = (text) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

  function submission() {
    const lines = course.seed ? [`seed = ${tomlString(course.seed)}`] : [];
    let count = 0;
    Object.entries(COURSE).forEach(([id, parts]) => {
      const work = workOf(id);
      const given = parts.filter((part) => isText(work.answers[part]) && work.answers[part].trim());
      if (!given.length) return;
      count += given.length;
      lines.push("", `[${tomlKey(id)}]`, ...given.map((part) => `${tomlKey(part)} = ${tomlString(work.answers[part])}`));
    });
    return count ? `${lines.join("\n").trim()}\n` : "";
  }

  function say(panel, text, undo) {
    const line = panel.querySelector(".course-checker__message");
    line.replaceChildren(el("span", "", text));
    if (undo) {
      const button = el("button", "course-checker__undo md-button", words(panel).undo);
      button.type = "button";
      button.addEventListener("click", () => {
        undo();
        line.replaceChildren();
      });
      line.append(" ", button);
    }
  }

  function download(panel) {
    const text = submission();
    if (!text) {
      say(panel, words(panel).nothing);
      return;
    }
    const link = el("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
    link.download = "answers.toml";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  }

  function base64(bytes) {
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }

  /* a file read by the grader itself (grader.web.load: grader submit's reader), its answers put in the boxes */
  async function load(panel, file) {
    const w = words(panel);
    const reply = await runner.run("load", [file.name, base64(new Uint8Array(await file.arrayBuffer())), LANG]);
    const read = reply.result;
    if (!read) {
      const why = reply.failed ? fill(w.failed, { error: reply.failed })
        : reply.timeout ? JSON.parse(exercises.length ? exercises[0].dataset.timeout : "{}").feedback || "" : reply.error;
      say(panel, fill(w.load_failed, { error: why }));
      return;
    }
    if (read.lang && read.lang !== LANG) {
      say(panel, fill(w.load_lang, { file: file.name, lang: read.lang }));
      return;
    }
    const seedBefore = course.seed;
    keepSeed(read.seed || "");
    let count = 0;
    Object.entries(read.answers).forEach(([id, given]) => {
      count += Object.keys(given).length;
      if (!records.has(id)) records.set(id, readRecord(id));
      saveWork(id, (work) => {
        work.answers = { ...given };
        Object.keys(work.verdicts).forEach((part) => {
          if (work.verdicts[part].answer !== given[part]) delete work.verdicts[part];
        });
      });
    });
    refresh(seedBefore);
    say(panel, fill(w.loaded, { file: file.name, count }));
  }

  /* the page again after the work changed under it: the seed's data, the boxes, the verdicts, the progress */
  function refresh(seedBefore) {
    if (course.seed !== seedBefore) exercises.forEach((exercise) => showSeed(exercise));
    exercises.forEach(restore);
    if (progress) showProgress();
  }

  /* clearing says so and can be undone: what it removed is put back (``ids``: these exercises; none: all) */
  function clear(panel, ids, message) {
    const keys = ids ? ids.map((id) => KEY(`exercise:${id}`)) : store.all();
    const removed = keys.map((key) => [key, store.call((storage) => storage.getItem(key))]);
    const held = new Map(records);
    const seedBefore = course.seed;
    keys.forEach((key) => store.call((storage) => storage.removeItem(key)));
    if (ids) ids.forEach((id) => records.delete(id));
    else {
      records.clear();
      course.seed = "";
    }
    refresh(seedBefore);
    say(panel, message, () => {
      removed.forEach(([key, value]) => value !== null && store.call((storage) => storage.setItem(key, value)));
      held.forEach((record, id) => records.set(id, record));
      const seedNow = course.seed;
      course.seed = seedBefore;
      refresh(seedNow);
    });
  }

  /* --- one part: its box, the reading of what is typed, its verdict */

  const partsOf = (exercise) =>
    [...document.querySelectorAll(`.course-checker[data-exercise="${CSS.escape(exercise.dataset.exercise)}"]`)];
  const exerciseOf = (part) =>
    exercises.find((exercise) => exercise.dataset.exercise === part.dataset.exercise);
  const boxOf = (part) => part.querySelector(".course-checker__answer");

  /* The grader's text for an answer it cannot read: the answer and the caret under it keep their columns (and
     scroll sideways when long); the words around them wrap in the box. */
  function caretNodes(text) {
    const lines = text.split("\n");
    const at = lines.findIndex((line, i) => i > 0 && /^\s*\^[\^~]*\s*$/.test(line));
    if (at < 1) return [el("span", "course-checker__caret-words", text)];
    const nodes = [el("pre", "course-checker__caret-lines", lines.slice(at - 1, at + 1).join("\n"))];
    if (at > 1) nodes.unshift(el("span", "course-checker__caret-words", lines.slice(0, at - 1).join("\n")));
    if (at + 1 < lines.length) nodes.push(el("span", "course-checker__caret-words", lines.slice(at + 1).join("\n")));
    return nodes;
  }

  const MATHML = "http://www.w3.org/1998/Math/MathML";
  /* the grader's MathML of a reading, parsed as HTML does (no script runs), kept only if it is MathML alone */
  function mathNode(markup) {
    const math = new DOMParser().parseFromString(markup, "text/html").body.firstElementChild;
    if (!math || math.namespaceURI !== MATHML || math.localName !== "math") return null;
    const clean = [math, ...math.querySelectorAll("*")].every((node) => node.namespaceURI === MATHML
      && [...node.attributes].every((a) => !/^(on|href|src|xlink)/i.test(a.name)));
    return clean ? document.importNode(math, true) : null;
  }

  function showVerdict(part, reply) {
    const exercise = exerciseOf(part);
    const box = part.querySelector(".course-checker__verdict");
    box.replaceChildren();
    delete box.dataset.score;
    delete box.dataset.note;
    if (reply.failed) {
      box.dataset.state = "failed";
      box.append(el("span", "course-checker__feedback", fill(words(exercise).failed, { error: reply.failed })));
      return null;
    }
    let result = reply.result;
    if (reply.timeout) {
      const answer = boxOf(part).value;
      result = { id: part.dataset.part, score: 0, max_score: Number(part.dataset.points), correct: false,
                 column: null, answer, ...JSON.parse(exercise.dataset.timeout) };
    }
    if (!result) {   // unusable input the grader refuses as a whole (a seed, a part): its own words
      box.dataset.state = "error";
      box.append(el("span", "course-checker__feedback", reply.error));
      return null;
    }
    box.dataset.state = reply.timeout ? "timeout" : "done";
    box.dataset.score = String(result.score);
    box.dataset.max = String(result.max_score);
    box.dataset.note = result.note;
    box.dataset.correct = String(result.correct);
    if (result.column !== null && reply.text) {   // the answer could not be read: show where
      const caret = el("div", "course-checker__caret");
      caret.append(...caretNodes(reply.text));
      box.append(caret);
      return result;
    }
    box.append(
      el("span", `course-checker__mark course-checker__mark--${result.correct ? "right" : "wrong"}`,
         result.correct ? "\u2713" : "\u2717"),
      el("span", "course-checker__score", `${Number(result.score)}/${result.max_score}`),
    );
    if (result.note) box.append(el("code", "course-checker__note", `[${result.note}]`));
    box.append(el("span", "course-checker__feedback", result.feedback));
    return result;
  }

  function clearVerdict(part) {
    const box = part.querySelector(".course-checker__verdict");
    box.replaceChildren();
    ["state", "score", "max", "note", "correct"].forEach((name) => delete box.dataset[name]);
  }

  async function check(part) {
    const exercise = exerciseOf(part);
    const box = part.querySelector(".course-checker__verdict");
    box.dataset.state = "checking";
    box.replaceChildren(el("span", "course-checker__feedback", words(exercise).checking));
    const answer = boxOf(part).value;
    const seed = exercise.dataset.seed || null;
    const reply = await runner.run("check", [part.dataset.exercise, part.dataset.part, answer,
                                             exercise.dataset.lang, seed]);
    if (boxOf(part).value !== answer || (exercise.dataset.seed || null) !== seed) {   // changed meanwhile
      clearVerdict(part);
      return null;
    }
    const result = showVerdict(part, reply);
    if (result) {
      const kept = { answer, score: Number(result.score), max_score: result.max_score, correct: result.correct,
                     note: result.note || "", feedback: result.feedback || "", column: result.column ?? null,
                     text: reply.text || "" };
      if (isText(result.read_as_mathml)) kept.read_as_mathml = result.read_as_mathml;
      saveWork(exercise.dataset.exercise, (work) => {
        work.answers[part.dataset.part] = answer;
        work.verdicts[part.dataset.part] = kept;
        work.best = Math.max(work.best ?? 0, lastScore(work));
      });
      showScores(exercise);
      showCommands(exercise, part.dataset.part, answer);
    }
    return result;
  }

  /* the answer as the grader reads it, after a pause in typing (grader.web.read: the reading the verdict uses) */
  const PAUSE = 600;
  async function preview(part) {
    const reading = part.querySelector(".course-checker__reading");
    const answer = boxOf(part).value;
    if (!answer.trim()) {
      reading.replaceChildren();
      delete reading.dataset.state;
      return;
    }
    if (part.reading) {   // one reading at a time per box: the latest text is read when it returns
      part.again = true;
      return;
    }
    part.reading = true;
    const exercise = exerciseOf(part);
    const reply = await runner.run("read", [part.dataset.exercise, part.dataset.part, answer, LANG,
                                            exercise.dataset.seed || null]);
    part.reading = false;
    if (part.again) {
      part.again = false;
      preview(part);
      return;
    }
    if (boxOf(part).value !== answer || !reply || (reply.code !== 0 && reply.code !== 2)) return;
    showReading(part, reply);
  }

  function showReading(part, reply) {
    const reading = part.querySelector(".course-checker__reading");
    const w = words(exerciseOf(part));
    reading.replaceChildren();
    if (reply.code === 2) {   // refused before Check, in the grader's words
      reading.dataset.state = "refused";
      const caret = el("div", "course-checker__caret");
      caret.append(...caretNodes(reply.text || `[${reply.note}] ${reply.feedback}`));
      reading.append(caret);
      return;
    }
    const math = reply.read_as_mathml ? mathNode(reply.read_as_mathml) : null;
    if (!math && !reply.read_as) {
      delete reading.dataset.state;
      return;
    }
    reading.dataset.state = "read";
    reading.append(el("span", "course-checker__read-as", `${w.read_as}: `), math || el("span", "", reply.read_as));
  }

  /* --- the exercise: scores, the commands that grade what the page graded */

  function showScores(exercise) {
    const work = workOf(exercise.dataset.exercise);
    const line = exercise.querySelector(".course-checker__scores");
    const max = partsOf(exercise).reduce((sum, part) => sum + Number(part.dataset.points), 0);
    line.hidden = work.best === null;
    line.textContent = work.best === null ? ""
      : fill(words(exercise).scores, { last: round(lastScore(work)), best: round(work.best), max });
  }

  function showCommands(exercise, part, answer) {   // part undefined: as they are, with the seed in use
    const id = exercise.dataset.exercise;
    const seed = course.seed ? ` --seed ${shellWord(course.seed)}` : "";
    const section = exercise.closest(".course-exercise") || exercise;
    const code = (pre) => section.querySelector(`pre${pre} > code`);   // the theme renames the blocks' ids
    const checkOne = section.querySelector("pre.course-command[data-part]");
    if (checkOne) {   // the part and answer last checked; null: the example again (another seed's data)
      checkOne.dataset.example = checkOne.dataset.example || JSON.stringify([checkOne.dataset.part, checkOne.dataset.answer]);
      if (part === null) [part, answer] = JSON.parse(checkOne.dataset.example);
      if (part !== undefined) Object.assign(checkOne.dataset, { part, answer });
    }
    if (checkOne) {
      code(".course-command[data-part]").textContent = `grader check ${id} ${checkOne.dataset.part} `
        + `${shellWord(checkOne.dataset.answer)} --lang ${LANG}${seed}`;
    }
    if (code("[data-submit]")) code("[data-submit]").textContent = `grader submit answers.toml --lang ${LANG}${seed}`;
    const toml = code(".course-toml");
    if (toml) {
      toml.dataset.template = toml.dataset.template || toml.textContent;
      toml.textContent = (course.seed ? `seed = ${tomlString(course.seed)}\n\n` : "") + toml.dataset.template;
    }
  }

  /* the boxes, verdicts and scores of the work kept for the seed in use */
  function restore(exercise) {
    const work = workOf(exercise.dataset.exercise);
    partsOf(exercise).forEach((part) => {
      const text = work.answers[part.dataset.part] || "";
      const verdict = work.verdicts[part.dataset.part];
      boxOf(part).value = text;
      part.querySelector(".course-checker__reading").replaceChildren();
      if (verdict && verdict.answer === text) showVerdict(part, { result: verdict, text: verdict.text });
      else clearVerdict(part);
    });
    exercise.querySelector(".course-checker__total").textContent = "";
    showScores(exercise);
  }

  async function checkAll(exercise) {
    const total = exercise.querySelector(".course-checker__total");
    total.textContent = "";
    let score = 0;
    let max = 0;
    for (const part of partsOf(exercise)) {
      max += Number(part.dataset.points);
      if (!boxOf(part).value.trim()) continue;
      const result = await check(part);
      if (result) score += Number(result.score);
    }
    total.textContent = fill(words(exercise).total, { score: round(score), max });
  }

  /* --- a variant: its data and figure in the place of the lesson's; prompts as grader show --seed gives them */

  function variantPlace(exercise) {
    const section = exercise.closest(".course-exercise") || exercise;
    const lesson = section.querySelector(".course-exercise__data");
    let view = section.querySelector(".course-checker__variant-data");
    if (!view) {
      view = el("div", "course-checker__variant-data");
      view.dataset.searchExclude = "";
      view.setAttribute("role", "group");
      if (lesson) lesson.after(view);
      else exercise.prepend(view);
    }
    const figure = exercise.dataset.figure && document.getElementById(`figure-${exercise.dataset.figure}`);
    return { lesson, view, drawing: figure && figure.querySelector(".course-figure__drawing") };
  }

  function lessonView(exercise) {
    const { lesson, view, drawing } = variantPlace(exercise);
    view.replaceChildren();
    view.hidden = true;
    if (lesson) lesson.hidden = false;
    if (drawing && drawing.lesson) drawing.replaceChildren(...drawing.lesson);
    if (drawing) delete drawing.dataset.seed;
    delete exercise.dataset.seed;
    exercise.querySelector(".course-checker__lesson").hidden = true;
    partsOf(exercise).forEach((part) => { part.querySelector(".course-checker__prompt").hidden = true; });
  }

  function svgNode(markup) {
    const svg = new DOMParser().parseFromString(markup, "image/svg+xml").documentElement;
    if (svg.localName !== "svg" || svg.querySelector("parsererror, script, foreignObject")) return null;
    const clean = [svg, ...svg.querySelectorAll("*")].every((node) =>
      [...node.attributes].every((a) => !/^(on|href|xlink)/i.test(a.name)));
    return clean ? document.importNode(svg, true) : null;
  }

  async function variantFigure(exercise, seed) {
    const { drawing } = variantPlace(exercise);
    if (!drawing) return;
    drawing.lesson = drawing.lesson || [...drawing.childNodes];
    const reply = await runner.run("figure", [exercise.dataset.exercise, LANG, seed, exercise.dataset.figureWords]);
    const svg = reply && reply.code === 0 && reply.svg ? svgNode(reply.svg) : null;
    if (!svg || exercise.dataset.seed !== seed) return;
    drawing.replaceChildren(svg);
    drawing.dataset.seed = seed;
  }

  /* the exercise shown for the course's seed: a variant's data (grader show --seed) and figure, or the lesson's */
  async function showSeed(exercise, reply) {
    const seedBox = exercise.querySelector(".course-checker__seed");
    const line = exercise.querySelector(".course-checker__variant-status");
    seedBox.value = course.seed;
    showCommands(exercise, null);
    if (!course.seed) {
      lessonView(exercise);
      return;
    }
    const seed = course.seed;
    exercise.dataset.seed = seed;
    if (!reply) {
      line.dataset.state = "checking";
      line.textContent = words(exercise).checking;
      reply = await runner.run("show", [exercise.dataset.exercise, LANG, seed]);
      if (course.seed !== seed) return;
    }
    if (!reply.result) {   // the grader could not say
      line.dataset.state = "error";
      line.textContent = reply.failed ? fill(words(exercise).failed, { error: reply.failed })
        : reply.timeout ? JSON.parse(exercise.dataset.timeout).feedback : reply.error;
      if (reply.error) {   // a kept seed it refuses (the rules for seeds changed): back to the lesson's data
        keepSeed("");
        exercises.forEach((other) => { showSeed(other); restore(other); });
      }
      return;
    }
    const variant = reply.result;
    const { lesson, view } = variantPlace(exercise);
    line.dataset.state = "done";
    line.dataset.seed = variant.seed;
    line.textContent = fill(words(exercise).variant_data, { seed: variant.seed });
    view.setAttribute("aria-label", line.textContent);
    const list = el("dl", "course-checker__data");
    Object.entries(variant.data).forEach(([name, value]) => {   // as grader show writes each line
      const values = Array.isArray(value) ? value.join(", ") : value && typeof value === "object"
        ? Object.entries(value).map(([k, v]) => `${k} = ${v}`).join(", ") || "-" : String(value);
      list.append(el("dt", "", (variant.data_labels || {})[name] || name), el("dd", "", values));
    });
    view.replaceChildren(el("p", "course-checker__variant-title", line.textContent), list);
    view.hidden = false;
    if (lesson) lesson.hidden = true;
    variant.parts.forEach((data) => {
      const part = partsOf(exercise).find((p) => p.dataset.part === data.id);
      if (!part) return;
      const prompt = part.querySelector(".course-checker__prompt");
      prompt.textContent = fill(words(exercise).variant_prompt, { seed: variant.seed, prompt: data.prompt });
      prompt.hidden = false;
    });
    exercise.querySelector(".course-checker__lesson").hidden = false;
    variantFigure(exercise, seed);
  }

  /* the student asks for a variant (or the lesson, with no seed): every exercise of the course follows */
  async function useSeed(exercise) {
    const wanted = exercise.querySelector(".course-checker__seed").value;
    const line = exercise.querySelector(".course-checker__variant-status");
    if (!wanted.trim()) {
      backToLesson(exercise);
      return;
    }
    line.dataset.state = "checking";
    line.textContent = words(exercise).checking;
    const reply = await runner.run("show", [exercise.dataset.exercise, LANG, wanted]);
    if (!reply.result) {
      line.dataset.state = "error";
      line.textContent = reply.failed ? fill(words(exercise).failed, { error: reply.failed })
        : reply.timeout ? JSON.parse(exercise.dataset.timeout).feedback : reply.error;
      return;
    }
    keepSeed(reply.result.seed);
    exercises.forEach((other) => {
      showSeed(other, other === exercise ? reply : undefined);
      restore(other);
    });
  }

  function backToLesson(exercise) {
    const was = course.seed;
    keepSeed("");
    exercises.forEach((other) => {
      showSeed(other);
      restore(other);
    });
    const line = exercise.querySelector(".course-checker__variant-status");
    line.dataset.state = "lesson";
    line.textContent = was ? words(exercise).lesson_again : "";
  }

  /* --- the home page: every exercise's state, from the same storage */

  function showProgress() {
    const w = words(progress);
    let done = 0;
    const rows = [...progress.querySelectorAll("tr[data-exercise]")];
    rows.forEach((row) => {
      const id = row.dataset.exercise;
      const work = workOf(id);
      const parts = COURSE[id] || [];
      const finished = parts.length && parts.every((part) => work.verdicts[part] && work.verdicts[part].correct
        && work.verdicts[part].answer === work.answers[part]);
      const state = finished ? "done" : answered(work) ? "started" : "new";
      done += state === "done";
      row.dataset.state = state;
      row.querySelector(".course-progress__state").textContent = w[`state_${state}`];
      row.querySelector(".course-progress__score").textContent =
        work.best === null ? "–" : `${round(work.best)}/${row.dataset.max}`;
    });
    progress.querySelector(".course-progress__summary").textContent =
      fill(w.progress_summary, { done, total: rows.length });
  }

  /* --- wiring: show what the build hid, start on first focus, keyboard as well as mouse */

  const starter = (event) => {
    if (event.target.matches(".course-checker__answer, .course-checker__seed")) {
      document.removeEventListener("focusin", starter);
      runner.start();
    }
  };
  document.addEventListener("focusin", starter);

  course.seed = readSeed();
  panels.forEach((panel) => {
    panel.hidden = false;
    const file = panel.querySelector(".course-checker__file");
    panel.querySelector(".course-checker__download").addEventListener("click", () => download(panel));
    panel.querySelector(".course-checker__load").addEventListener("click", () => file.click());
    file.addEventListener("change", () => {
      if (file.files.length) load(panel, file.files[0]);
      file.value = "";
    });
    panel.querySelector(".course-checker__clear-all").addEventListener("click", () =>
      clear(panel, null, words(panel).cleared_all));
    const one = panel.querySelector(".course-checker__clear");
    if (one) one.addEventListener("click", () => clear(panel, [panel.dataset.exercise], words(panel).cleared));
  });
  if (progress) showProgress();

  exercises.forEach((exercise) => {
    exercise.querySelector(".course-checker__check-all").addEventListener("click", () => checkAll(exercise));
    const seed = exercise.querySelector(".course-checker__seed");
    exercise.querySelector(".course-checker__use-seed").addEventListener("click", () => useSeed(exercise));
    seed.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) useSeed(exercise);
    });
    exercise.querySelector(".course-checker__lesson").addEventListener("click", () => {
      seed.value = "";
      backToLesson(exercise);
    });
    partsOf(exercise).forEach((part) => {
      part.hidden = false;
      const box = boxOf(part);
      part.querySelector(".course-checker__check").addEventListener("click", () => check(part));
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.isComposing) check(part);
      });
      box.addEventListener("input", () => {   // a verdict was for the answer before: it goes, the reading follows
        clearVerdict(part);
        saveWork(exercise.dataset.exercise, (work) => {
          if (box.value) work.answers[part.dataset.part] = box.value;
          else delete work.answers[part.dataset.part];
          delete work.verdicts[part.dataset.part];
        });
        showScores(exercise);
        clearTimeout(part.pause);
        part.pause = setTimeout(() => preview(part), PAUSE);
      });
    });
    restore(exercise);
    if (course.seed) showSeed(exercise);
    else showCommands(exercise);
  });
})();
