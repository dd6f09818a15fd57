/* Check an answer on the page: the course's grader (Python) runs in a Web Worker, offline.

   Loaded on pages with an exercise, and on each locale's home page (its progress); hooks/checker/publish.py adds it
   after loader.js in the same script, hooks/checker/workspace.py writes the markup, hidden: this shows it. The worker
   that runs the grader, and when it starts, are loader.js's. One check runs at a time; one that
   passes the time limit has its worker terminated and restarted, and its verdict is the one grader check gives
   a check that runs out of time. Verdicts are grader/web.py's replies: grader check --format json.

   The student's work (kept in this browser, downloaded, loaded, cleared; the reading of an answer as it is
   typed; a variant; the home page's progress) is work.js's, loaded when it is first needed: at the first
   answer typed or button pressed, or at once where this browser keeps work for the page. A lesson page
   opened with nothing kept weighs what it did before. */
(() => {
  "use strict";

  const script = document.currentScript;
  const exercises = [...document.querySelectorAll(".course-checker-exercise")];
  const progress = document.querySelector(".course-progress");
  const panels = [...exercises, progress].filter(Boolean);   // where the words, the status and the work are
  if (!script || !panels.length || typeof Worker !== "function") return;

  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  // a score as the page's language writes it (its decimal mark: grader/languages/numerals.py, via the build)
  const number = (x, exercise) => String(Math.round(x * 1000) / 1000).replace(".", exercise.dataset.decimal || ".");
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const base = new URL(".", script.src);
  const WORK = "work.js";   // the build writes work.js's name in the site here (hooks/checker/publish.py, WORK_MARK)
  /* --- words */

  const parsed = new WeakMap();
  const words = (panel) => {
    if (!parsed.has(panel)) parsed.set(panel, JSON.parse(panel.dataset.words));
    return parsed.get(panel);
  };

  const runner = checkerRunner({ script, exercises: panels, words, fill });   // loader.js: the worker, when it starts

  function failed(error) {   // work.js could not be loaded: said where the checker says how it is
    panels.forEach((panel) => {
      const line = panel.querySelector(".course-checker__status");
      line.textContent = fill(words(panel).failed, { error });
      line.dataset.state = "failed";
    });
  }

  /* --- where the work is kept: localStorage, per site (its root: assets/checker/ is two folders down) and locale */

  const LANG = panels[0].dataset.lang;
  const SITE = `course-work:${new URL("../../", base).pathname}:`;
  const KEY = (name) => `${SITE}${LANG}:${name}`;
  const storage = {
    said: false,
    call(action) {
      try {
        return action(window.localStorage);
      } catch (error) {   // turned off (a SecurityError), or full (a QuotaExceededError)
        this.lost();
        return null;
      }
    },
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

  /* work.js, once: what it returns is called with the page's pieces (``core``). While calls to it wait,
     <html data-course-work="busy"> (then "done"): for the curious, and the tests */
  let loaded = null;
  let pending = 0;
  const busy = (change) => {
    pending += change;
    document.documentElement.dataset.courseWork = pending ? "busy" : "done";
  };
  const later = (name, ...args) => {
    loaded = loaded || import(new URL(WORK, base).href)
      .then((module) => module.default(core));
    busy(1);
    return loaded.then((work) => work[name](...args)).catch((error) => {
      failed(String((error && error.message) || error));
      return null;
    }).finally(() => busy(-1));
  };

  /* --- one part: its box, its verdict */

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
    const caret = el("div", "course-checker__caret");
    if (at < 1) caret.append(el("span", "course-checker__caret-words", text));
    else {
      if (at > 1) caret.append(el("span", "course-checker__caret-words", lines.slice(0, at - 1).join("\n")));
      caret.append(el("pre", "course-checker__caret-lines", lines.slice(at - 1, at + 1).join("\n")));
      if (at + 1 < lines.length) caret.append(el("span", "course-checker__caret-words", lines.slice(at + 1).join("\n")));
    }
    return caret;
  }

  function showVerdict(part, reply) {
    const exercise = exerciseOf(part);
    const box = part.querySelector(".course-checker__verdict");
    clearVerdict(part);
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
      box.append(caretNodes(reply.text));
      return result;
    }
    box.append(
      el("span", `course-checker__mark course-checker__mark--${result.correct ? "right" : "wrong"}`,
         result.correct ? "\u2713" : "\u2717"),
      el("span", "course-checker__score", `${number(result.score, exercise)}/${result.max_score}`),
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
    if (result) later("checked", part, answer, result, reply.text || "");   // kept, scored, in the command
    return result;
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
    total.textContent = fill(words(exercise).total, { score: number(score, exercise), max });
  }

  /* what work.js works with */
  const core = { runner, words, fill, number, el, LANG, SITE, KEY, storage, exercises, progress, panels, partsOf,
                 exerciseOf, boxOf, caretNodes, showVerdict, clearVerdict };

  /* --- wiring: show what the build hid, keyboard as well as mouse */


  panels.forEach((panel) => {
    panel.hidden = false;
    const file = panel.querySelector(".course-checker__file");
    const on = (what, action) => {
      const button = panel.querySelector(`.course-checker__${what}`);
      if (button) button.addEventListener("click", action);
    };
    on("download", () => later("download", panel));
    on("load", () => file.click());
    file.addEventListener("change", () => {
      if (file.files.length) later("load", panel, file.files[0]);
    });
    on("clear-all", () => later("clear", panel, null));
    on("clear", () => later("clear", panel, [panel.dataset.exercise]));
  });

  exercises.forEach((exercise) => {
    exercise.querySelector(".course-checker__check-all").addEventListener("click", () => checkAll(exercise));
    const seed = exercise.querySelector(".course-checker__seed");
    exercise.querySelector(".course-checker__use-seed").addEventListener("click", () => later("useSeed", exercise));
    seed.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) later("useSeed", exercise);
    });
    exercise.querySelector(".course-checker__lesson").addEventListener("click", () => later("backToLesson", exercise));
    partsOf(exercise).forEach((part) => {
      part.hidden = false;
      const box = boxOf(part);
      part.querySelector(".course-checker__check").addEventListener("click", () => check(part));
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.isComposing) check(part);
      });
      box.addEventListener("input", () => {   // a verdict was for the answer before: it goes
        clearVerdict(part);
        later("typed", part, box.value);   // kept; read as the grader reads it after a pause
      });
    });
  });

  // work kept for this page (or storage that cannot be opened, said at once): put back now
  const kept = (name) => storage.call((store) => store.getItem(KEY(name))) !== null;
  if (progress || kept("seed") || exercises.some((exercise) => kept(`exercise:${exercise.dataset.exercise}`))) {
    later("open");
  }
})();
