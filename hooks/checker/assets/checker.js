/* Check an answer on the page: the course's grader (Python) runs in a Web Worker, offline.

   The script every page loads: hooks/checker/publish.py adds it after loader.js in the same script, hooks/checker/workspace.py
   writes the markup, hidden: checkerPage() shows it, once for each page the reader opens (loader.js attaches each
   page, and releases the one before: the theme's instant navigation swaps pages without unloading). The worker that
   runs the grader, and when it starts, are loader.js's: one for the visit. One check runs at a time; one that
   passes the time limit has its worker terminated and restarted, and its verdict is the one grader check gives
   a check that runs out of time. Verdicts are grader/web.py's replies: grader check --format json.

   The student's work (kept in this browser, downloaded, loaded, cleared; the reading of an answer as it is
   typed; a variant; the home page's progress) is work.js's, loaded when it is first needed: at the first
   answer typed or button pressed, or at once where this browser keeps work for the page. A lesson page
   opened with nothing kept weighs what it did before. */
function checkerPage(runner, script) {
  const exercises = [...document.querySelectorAll(".course-checker-exercise")];
  const progress = document.querySelector(".course-progress");
  const panels = [...exercises, progress].filter(Boolean);   // where the words, the status and the work are
  if (!panels.length) return null;

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

  const waiting = waitingPlaces(words, fill);
  const variants = variantPlaces({ el, words, fill });
  const release = checkerView(runner, { panels, words, fill, waiting });   // loader.js: the worker's state, when it starts

  function failed(error) {   // work.js could not be loaded: said where the checker says how it is
    panels.forEach((panel) => {
      const line = panel.querySelector(".course-checker__status");
      line.textContent = fill(words(panel).failed, { error });
      line.dataset.state = "failed";
    });
    exercises.forEach((exercise) => {   // a variant being drawn will not be
      const { view } = variants.place(exercise);
      if (view.dataset.state === "drawing") variants.notDrawn(exercise, view.dataset.variant, error);
    });
  }

  /* --- where the work is kept: localStorage, per site and locale (workKeys) */

  const LANG = panels[0].dataset.lang;
  const { SITE, KEY } = workKeys(base, LANG);
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

  /* the box's state beside it, an icon and words: right, partly right, wrong, unreadable, not checked since it
     changed ("unchecked"), or none (an empty box, or no verdict to show) */
  const BADGE_ICONS = { right: "\u2713", partial: "\u25D0", wrong: "\u2717", unreadable: "\u26A0\uFE0E", unchecked: "\u25CB" };
  const verdictState = (result) => (result.correct ? "right" : result.column !== null ? "unreadable"
    : Number(result.score) > 0 ? "partial" : "wrong");
  function showBadge(part, state) {
    const badge = part.querySelector(".course-checker__badge");
    badge.hidden = !state;
    badge.dataset.state = state;
    badge.replaceChildren(...(state ? [el("span", "course-checker__badge-icon", BADGE_ICONS[state]),
                                       words(exerciseOf(part))[`verdict_${state}`]] : []));
  }
  const hidden = (node) => {   // shown, not read: the verdict's words say it (verdict_said)
    node.setAttribute("aria-hidden", "true");
    return node;
  };

  function showVerdict(part, reply) {
    const exercise = exerciseOf(part);
    const box = part.querySelector(".course-checker__verdict");
    clearVerdict(part);
    showBadge(part, "");
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
    const state = verdictState(result);
    showBadge(part, state);
    const w = words(exercise);
    box.append(el("span", "course-checker__said", fill(w.verdict_said, {
      verdict: w[`verdict_${state}`], score: number(result.score, exercise), max: result.max_score })));
    if (result.column !== null && reply.text) {   // the answer could not be read: show where, once (the
      const reading = part.querySelector(".course-checker__reading");   // reading showed the same: it goes)
      const caret = caretNodes(reply.text);
      // the reading already said these words aloud: the verdict shows them, and says only its own words
      if (reading.dataset.state === "refused" && reading.textContent === caret.textContent) hidden(caret);
      reading.replaceChildren();
      delete reading.dataset.state;
      box.append(caret);
      return result;
    }
    box.append(
      hidden(el("span", `course-checker__mark course-checker__mark--${result.correct ? "right" : "wrong"}`,
                result.correct ? "\u2713" : "\u2717")),
      hidden(el("span", "course-checker__score", `${number(result.score, exercise)}/${result.max_score}`)),
    );
    if (result.note) box.append(hidden(el("code", "course-checker__note", `[${result.note}]`)));
    box.append(el("span", "course-checker__feedback", result.feedback));
    return result;
  }

  function clearVerdict(part) {   // no verdict for the answer in the box: not checked yet (unless empty)
    const box = part.querySelector(".course-checker__verdict");
    box.replaceChildren();
    ["state", "score", "max", "note", "correct"].forEach((name) => delete box.dataset[name]);
    showBadge(part, boxOf(part).value.trim() ? "unchecked" : "");
  }

  async function check(part) {
    const exercise = exerciseOf(part);
    const box = part.querySelector(".course-checker__verdict");
    box.dataset.state = "checking";
    box.replaceChildren(el("span", "course-checker__feedback", words(exercise).checking));   // or how the checker is
    const answer = boxOf(part).value;
    const seed = exercise.dataset.seed || null;
    const reply = await runner.run("check", [part.dataset.exercise, part.dataset.part, answer,
                                             exercise.dataset.lang, seed]);
    if (boxOf(part).value !== answer || (exercise.dataset.seed || null) !== seed) {   // changed meanwhile
      clearVerdict(part);
      return null;
    }
    const result = showVerdict(part, reply);
    box.scrollIntoView({ block: "nearest" });   // a verdict below the fold is seen; the focus stays where it is
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
  /* the same page in the locale ``lang``: the theme's language switcher's link to it (null where there is none) */
  const alternate = (lang) => {
    const link = document.querySelector(`a.md-select__link[hreflang="${CSS.escape(lang)}"]`);
    return link ? link.href : null;
  };
  const core = { runner, words, fill, number, el, LANG, SITE, KEY, storage, exercises, progress, panels, partsOf,
                 exerciseOf, boxOf, caretNodes, showVerdict, clearVerdict, variants, workElsewhere, alternate };

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
      if (!file.files.length) return;
      waiting.add(panel.querySelector(".course-checker__message"), panel);
      later("load", panel, file.files[0]);
    });
    on("clear-all", () => later("clear", panel, null));
    on("clear", () => later("clear", panel, [panel.dataset.exercise]));
  });

  exercises.forEach((exercise) => {
    exercise.querySelector(".course-checker__check-all").addEventListener("click", () => checkAll(exercise));
    const seed = exercise.querySelector(".course-checker__seed");
    exercise.querySelector(".course-checker__use-seed").addEventListener("click", () => later("useSeed", exercise));
    exercise.querySelector(".course-checker__new-seed").addEventListener("click", () => later("newVariant", exercise));
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

  // work kept for this page (or storage that cannot be opened, said at once): put back now; a seed kept, its
  // variant being drawn from the start (work.js's open shows it, or the lesson's if the seed is none it keeps)
  const kept = (name) => storage.call((store) => store.getItem(KEY(name))) !== null;
  let seedKept = null;
  try {
    seedKept = JSON.parse(storage.call((store) => store.getItem(KEY("seed"))));
  } catch (error) { /* not JSON: work.js ignores it */ }
  if (typeof seedKept === "string" && seedKept) exercises.forEach((exercise) => variants.drawing(exercise, seedKept));
  const names = storage.call((store) => Object.keys(store)) || [];
  const elsewhere = workElsewhere(names, SITE, LANG, exercises.map((exercise) => exercise.dataset.exercise));
  if (progress || kept("seed") || exercises.some((exercise) => kept(`exercise:${exercise.dataset.exercise}`))
      || Object.keys(elsewhere).length) {
    later("open");
  }
  return release;
}

/* the names the student's work has in localStorage: SITE, the start of every name of this site (its root:
   the script's folder, assets/checker/, is two folders down), and KEY(name), the name of ``name`` in locale
   ``lang`` (work.js keeps "seed" and "exercise:<id>" there, every seed's work of an exercise in one record) */
function workKeys(base, lang) {
  const SITE = `course-work:${new URL("../../", base).pathname}:`;
  return { SITE, KEY: (name) => `${SITE}${lang}:${name}` };
}

/* the other locales in which this browser keeps work on the exercises ``ids``, from the names in localStorage
   (``names``, KEY's): {exercise id: [locale, …]}, the locales in order, an exercise with none left out */
function workElsewhere(names, SITE, lang, ids) {
  const found = {};
  names.forEach((name) => {
    const match = name.startsWith(SITE) && /^([^:]+):exercise:(.+)$/.exec(name.slice(SITE.length));
    if (!match || match[1] === lang || !ids.includes(match[2])) return;
    found[match[2]] = [...(found[match[2]] || []), match[1]].sort();
  });
  return found;
}

/* --- a variant's place: its data and figure take the lesson's (work.js shows them). While a variant is being drawn
   (the grader computes it, seconds while the checker starts) the place says so, busy, and the lesson's data and
   figure are hidden: never shown as the variant's. If it cannot be drawn, the place says so, right under the
   lesson's data shown again (and above the lesson's figure). checkerPage marks a page opened with a seed kept at
   once, before work.js is loaded. */
function variantPlaces({ el, words, fill }) {
  function place(exercise) {   // the lesson's data, the variant's (made the first time), the figure's drawing
    const section = exercise.closest(".course-exercise") || exercise;
    const lesson = section.querySelector(".course-exercise__data");
    let view = section.querySelector(".course-checker__variant-data");
    if (!view) {
      view = el("div", "course-checker__variant-data");
      view.dataset.searchExclude = "";
      view.setAttribute("role", "group");
      if (lesson) lesson.after(view);   // where the lesson's data are, right after them
      else exercise.prepend(view);
    }
    const figure = exercise.dataset.figure && document.getElementById(`figure-${exercise.dataset.figure}`);
    const drawing = figure && figure.querySelector(".course-figure__drawing");
    if (drawing && !drawing.lesson) drawing.lesson = [...drawing.childNodes];
    return { lesson, view, drawing };
  }
  const busy = (node, yes) => (yes ? node.setAttribute("aria-busy", "true") : node.removeAttribute("aria-busy"));
  /* the figure says ``text``: alone while the variant's is drawn (busy), else above the lesson's */
  function figureSays(exercise, text, drawn) {
    const { drawing } = place(exercise);
    if (!drawing) return;
    drawing.replaceChildren(el("p", "course-checker__drawing", text), ...(drawn ? [] : drawing.lesson));
    busy(drawing, drawn);
    delete drawing.dataset.seed;
  }
  function says(exercise, seed, text, drawn) {
    const { lesson, view } = place(exercise);
    view.replaceChildren(el("p", "course-checker__variant-title", text));
    view.setAttribute("aria-label", text);
    Object.assign(view.dataset, { state: drawn ? "drawing" : "not-drawn", variant: seed });
    busy(view, drawn);
    view.hidden = false;
    if (lesson) lesson.hidden = drawn;
    figureSays(exercise, text, drawn);
  }
  const notDrawnText = (exercise, seed, error) => fill(words(exercise).not_drawn, { seed, error });
  return {
    place, busy,
    drawing: (exercise, seed) => says(exercise, seed, fill(words(exercise).drawing, { seed }), true),
    notDrawn: (exercise, seed, error) => says(exercise, seed, notDrawnText(exercise, seed, error), false),
    figureNotDrawn: (exercise, seed, error) => figureSays(exercise, notDrawnText(exercise, seed, error), false),
  };
}

/* --- a verdict is never waited for in silence: until the checker can answer, the place that asked (the part's
   verdict, the variant's line, the Load answers line) says how the checker is (starting, downloading: how much of
   how much, importing the grader, loading SymPy) where the student looks; the call waits in the runner's queue and
   is made as soon as it can be. A place waits while it shows what was written there: "Checking…" (a verdict box or
   the variant's line that checker.js or work.js set to checking) or these words. */
function waitingPlaces(words, fill) {
  const QUEUED = { "": "queued_starting", starting: "queued_starting", restarted: "queued_starting",
                   loading: "queued_loading", importing: "queued_importing", loading_sympy: "loading_sympy" };
  const added = new Map();   // a place that is not set to checking (Load answers' line) -> its panel
  const wrote = new WeakMap();   // a place -> the words written in it
  const panelOf = (place) => added.get(place) || place.closest(".course-checker-exercise, .course-progress")
    || document.querySelector(`.course-checker-exercise[data-exercise="${CSS.escape(place.closest(".course-checker").dataset.exercise)}"]`);
  const places = () => [...document.querySelectorAll(".course-checker__verdict[data-state='checking'], "
    + ".course-checker__variant-status[data-state='checking']"), ...added.keys()];

  function write(place, text) {
    if (place.matches(".course-checker__verdict")) place.replaceChildren(Object.assign(document.createElement("span"),
      { className: "course-checker__feedback", textContent: text }));
    else place.textContent = text;
    wrote.set(place, text);
  }

  return {
    add(place, panel) {
      added.set(place, panel);
      write(place, words(panel).checking);
    },
    /* the runner's state (a status key and its values; ``said`` puts them in a panel's words) in every waiting place */
    say(key, values, said) {
      places().forEach((place) => {
        const panel = panelOf(place);
        const text = place.textContent;
        if (!panel || (text !== wrote.get(place) && text !== words(panel).checking)) {   // answered: it waits no more
          added.delete(place);
          return;
        }
        const now = QUEUED[key] ? said(panel, QUEUED[key], values) : words(panel).checking;
        if (now !== text) write(place, now);   // the same words again would be said again
      });
    },
  };
}
