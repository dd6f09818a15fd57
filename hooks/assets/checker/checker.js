/* Check an answer on the page: the course's grader (Python) runs in a Web Worker, offline.

   Loaded on pages with an exercise (hooks/checker.py adds it, after loader.js in the same script);
   it shows the answer boxes the build wrote hidden. The worker that runs the grader, and when it
   starts, are loader.js's. One check runs at a time; one that passes the time limit has its worker
   terminated and restarted, and its verdict is the one grader check gives a check that runs out of
   time. Verdicts are grader/web.py's replies: grader check --format json. */
(() => {
  "use strict";

  const script = document.currentScript;
  const exercises = [...document.querySelectorAll(".course-checker-exercise")];
  if (!script || !exercises.length || typeof Worker !== "function") return;

  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  // a score as the page's language writes it (its decimal mark: grader/languages/numerals.py, via the build)
  const number = (x, exercise) => String(Math.round(x * 1000) / 1000).replace(".", exercise.dataset.decimal || ".");
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const words = (exercise) => JSON.parse(exercise.dataset.words);
  const runner = checkerRunner({ script, exercises, words, fill });   // loader.js: the worker, when it starts

  /* --- one part: its box, its verdict */

  const partsOf = (exercise) =>
    [...document.querySelectorAll(`.course-checker[data-exercise="${CSS.escape(exercise.dataset.exercise)}"]`)];
  const exerciseOf = (part) =>
    exercises.find((exercise) => exercise.dataset.exercise === part.dataset.exercise);

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
      const answer = part.querySelector(".course-checker__answer").value;
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
      box.append(el("pre", "course-checker__caret", reply.text));
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

  async function check(part) {
    const exercise = exerciseOf(part);
    const box = part.querySelector(".course-checker__verdict");
    box.dataset.state = "checking";
    box.replaceChildren(el("span", "course-checker__feedback", words(exercise).checking));
    const answer = part.querySelector(".course-checker__answer").value;
    const seed = exercise.dataset.seed || null;
    const reply = await runner.run("check", [part.dataset.exercise, part.dataset.part, answer,
                                             exercise.dataset.lang, seed]);
    return showVerdict(part, reply);
  }

  async function checkAll(exercise) {
    const total = exercise.querySelector(".course-checker__total");
    total.textContent = "";
    let score = 0;
    let max = 0;
    for (const part of partsOf(exercise)) {
      max += Number(part.dataset.points);
      if (!part.querySelector(".course-checker__answer").value.trim()) continue;
      const result = await check(part);
      if (result) score += Number(result.score);
    }
    total.textContent = fill(words(exercise).total, { score: number(score, exercise), max });
  }

  /* --- a variant: the data and prompts grader show --seed gives, and checks against it */

  function clearVerdicts(exercise) {
    exercise.querySelector(".course-checker__total").textContent = "";
    partsOf(exercise).forEach((part) => {
      const box = part.querySelector(".course-checker__verdict");
      box.replaceChildren();
      box.dataset.state = "";
    });
  }

  function lessonData(exercise, announce) {
    delete exercise.dataset.seed;
    const shown = exercise.querySelector(".course-checker__variant-data");
    shown.replaceChildren();
    if (announce) shown.append(el("p", "", words(exercise).lesson_again));
    exercise.querySelector(".course-checker__lesson").hidden = true;
    partsOf(exercise).forEach((part) => { part.querySelector(".course-checker__prompt").hidden = true; });
    clearVerdicts(exercise);
  }

  async function useSeed(exercise) {
    const seed = exercise.querySelector(".course-checker__seed").value;
    if (!seed.trim()) {
      lessonData(exercise, Boolean(exercise.dataset.seed));
      return;
    }
    const shown = exercise.querySelector(".course-checker__variant-data");
    shown.dataset.state = "checking";
    shown.replaceChildren(el("p", "", words(exercise).checking));
    const reply = await runner.run("show", [exercise.dataset.exercise, exercise.dataset.lang, seed]);
    shown.replaceChildren();
    if (!reply.result) {
      shown.dataset.state = "error";
      shown.append(el("p", "course-checker__feedback",
                      reply.failed ? fill(words(exercise).failed, { error: reply.failed })
                        : reply.timeout ? JSON.parse(exercise.dataset.timeout).feedback : reply.error));
      return;
    }
    const variant = reply.result;
    exercise.dataset.seed = variant.seed;
    shown.dataset.state = "done";
    shown.dataset.seed = variant.seed;
    shown.append(el("p", "course-checker__variant-title", fill(words(exercise).variant_data, { seed: variant.seed })));
    const list = el("dl", "course-checker__data");
    Object.entries(variant.data_text).forEach(([name, value]) => {   // as grader show writes each line
      list.append(el("dt", "", (variant.data_labels || {})[name] || name), el("dd", "", value));
    });
    shown.append(list);
    variant.parts.forEach((data) => {
      const part = partsOf(exercise).find((p) => p.dataset.part === data.id);
      if (!part) return;
      const prompt = part.querySelector(".course-checker__prompt");
      prompt.textContent = fill(words(exercise).variant_prompt, { seed: variant.seed, prompt: data.prompt });
      prompt.hidden = false;
    });
    exercise.querySelector(".course-checker__lesson").hidden = false;
    clearVerdicts(exercise);
  }

  /* --- wiring: show what the build hid, keyboard as well as mouse */


  exercises.forEach((exercise) => {
    exercise.hidden = false;
    exercise.querySelector(".course-checker__check-all").addEventListener("click", () => checkAll(exercise));
    const seed = exercise.querySelector(".course-checker__seed");
    exercise.querySelector(".course-checker__use-seed").addEventListener("click", () => useSeed(exercise));
    seed.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) useSeed(exercise);
    });
    exercise.querySelector(".course-checker__lesson").addEventListener("click", () => {
      seed.value = "";
      lessonData(exercise, true);
    });
    partsOf(exercise).forEach((part) => {
      part.hidden = false;
      part.querySelector(".course-checker__check").addEventListener("click", () => check(part));
      part.querySelector(".course-checker__answer").addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.isComposing) check(part);
      });
    });
  });
})();
