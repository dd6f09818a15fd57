/* The student's work on the page (hooks/checker/workspace.py writes its markup): loaded by checker.js when first needed,
   as a module whose default function is given checker.js's pieces and returns what the page calls.

   Each answer, the seed in use and each part's last verdict are kept in localStorage, per site, locale,
   exercise and seed, and put back when the page opens; a value that is not the shape this script writes is
   ignored, never shown as an answer. Without storage (full, turned off) the page works from what it holds and
   says once that nothing is kept. "Download my answers" writes them as the file grader submit takes; "Load
   answers" reads one back through the grader's own reader (grader.web.load); clearing can be undone. The
   reading of an answer as the grader reads it (grader.web.read) follows the typing, after a pause. The seed is
   the course's (the student's id, or six digits New variant draws): one for every exercise of a locale; a variant's data and figure
   (grader.web.figure) take the place of the lesson's. The home page lists every exercise's state, last score (what grader submit gives the downloaded file) and best,
   and their totals. */

/* The pieces that compute without the page, exported for the tests too (tests/js/: Node's test runner) */

/* a TOML basic string of any text: quotes, backslashes and every control character escaped, the rest as is */
const TOML_ESCAPES = { "\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };
export const tomlString = (text) => `"${text.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => TOML_ESCAPES[c]
  || `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
export const tomlKey = (key) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key));
/* a word for the shell, as the commands shown on the page write it (POSIX quoting) */
export const shellWord = (text) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

/* the seed New variant draws for the student: six digits, short to type again on another device or in a
   terminal, the first never 0 (the grader reads 042 and 42 as different seeds, a reader may not), uniform (a
   draw past the last whole span of 900000 is drawn again: no modulo bias); ``random`` fills a Uint32Array */
const SPAN = 900000;
export function drawSeed(random = (array) => globalThis.crypto.getRandomValues(array)) {
  const limit = Math.floor(2 ** 32 / SPAN) * SPAN;
  const value = new Uint32Array(1);
  do random(value); while (value[0] >= limit);
  return String(100000 + (value[0] % SPAN));
}

export default function work(core) {
  const { runner, words, fill, number, el, LANG, SITE, KEY, storage, exercises, progress, panels, partsOf, exerciseOf,
          boxOf, caretNodes, showVerdict, clearVerdict, variants, workElsewhere, alternate } = core;

  const COURSE = JSON.parse(panels[0].dataset.course);   // {exercise id: [part ids]}, in the course's order
  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  const isText = (value, most = 100000) => typeof value === "string" && value.length <= most;
  const isScore = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0;

  const call = (action) => storage.call(action);
  const store = {
    read: (name) => call((local) => local.getItem(KEY(name))),
    write: (name, value) => call((local) => local.setItem(KEY(name), value)),
    remove: (name) => call((local) => local.removeItem(KEY(name))),
    /* every key of this site, in every locale (clearing all) */
    all: () => call((local) => Object.keys(local).filter((key) => key.startsWith(SITE))) || [],
  };

  const validVerdict = (v) => isObject(v) && isText(v.answer) && isScore(v.score) && Number.isInteger(v.max_score)
    && typeof v.correct === "boolean" && isText(v.note, 200) && isText(v.feedback) && isText(v.text)
    && (v.column === null || Number.isInteger(v.column))
    && [v.read_as, v.read_as_mathml].every((reading) => reading === undefined || isText(reading));

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

  /* a part's verdict when it is the verdict of the answer kept (the one the downloaded file holds) */
  const current = (work, part) => {
    const verdict = work.verdicts[part];
    return verdict && isText(work.answers[part]) && work.answers[part].trim() && verdict.answer === work.answers[part]
      ? verdict : null;
  };
  /* the last score: the sum of the verdicts of the answers kept, what grader submit gives the downloaded file
     once every answer is checked (an answer not checked yet counts for nothing here) */
  const lastScore = (work) => Object.keys(work.verdicts).reduce((sum, part) => sum + (current(work, part)?.score ?? 0), 0);
  const unchecked = (work) => Object.keys(work.answers).filter((part) => work.answers[part].trim() && !current(work, part));
  const answered = (work) => Object.values(work.answers).some((text) => text.trim());

  /* --- the file grader submit takes: TOML, one table per exercise, the seed when a variant is in use */

  function submission() {
    const lines = [`lang = ${tomlString(LANG)}`, ...(course.seed ? [`seed = ${tomlString(course.seed)}`] : [])];
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
      const why = reply.failed ? fill(w.failed, { error: reply.failed }) : reply.timeout ? "" : reply.error;
      say(panel, fill(w.load_failed, { error: why }));
      return;
    }
    if (read.lang && read.lang !== LANG) {
      // the language by its name in the page's language (labels.toml's [languages], via the build), else its code
      const names = JSON.parse(panel.dataset.languages || "{}");
      say(panel, fill(w.load_lang, { file: file.name, lang: Object.hasOwn(names, read.lang) ? names[read.lang] : read.lang }));
      return;
    }
    const seedBefore = course.seed;
    const undo = undoable([KEY("seed"), ...Object.keys(read.answers).map((id) => KEY(`exercise:${id}`))]);
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
    refresh(seedBefore);   // the answers loaded show "Not checked yet" where no verdict kept is theirs
    say(panel, fill(w.loaded, { file: file.name, count }), undo);
  }

  /* the page again after the work changed under it: the seed's data, the boxes, the verdicts, the progress */
  function refresh(seedBefore) {
    if (course.seed !== seedBefore) exercises.forEach((exercise) => showSeed(exercise));
    exercises.forEach(restore);
    if (progress) showProgress();
  }

  /* what these keys of storage hold now, the page's records and the seed: the function returned puts them back
     (Undo, after a clearing or a loading) */
  function undoable(keys) {
    const before = keys.map((key) => [key, call((local) => local.getItem(key))]);
    const held = new Map([...records].map(([id, record]) => [id, structuredClone(record)]));   // saveWork changes them
    const seedBefore = course.seed;
    return () => {
      before.forEach(([key, value]) => call((local) => (value === null ? local.removeItem(key) : local.setItem(key, value))));
      records.clear();
      held.forEach((record, id) => records.set(id, record));
      const seedNow = course.seed;
      course.seed = seedBefore;
      refresh(seedNow);
    };
  }

  /* clearing says so and can be undone (``ids``: these exercises; null: all) */
  function clear(panel, ids) {
    const message = words(panel)[ids ? "cleared" : "cleared_all"];
    const keys = ids ? ids.map((id) => KEY(`exercise:${id}`)) : store.all();
    const undo = undoable(keys);
    const seedBefore = course.seed;
    keys.forEach((key) => call((local) => local.removeItem(key)));
    if (ids) ids.forEach((id) => records.delete(id));
    else {
      records.clear();
      course.seed = "";
    }
    refresh(seedBefore);
    say(panel, message, undo);
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
    // a refusal the verdict already shows (Check was pressed while this was read) is said once, there
    if (reply.code === 2 && part.querySelector(".course-checker__verdict .course-checker__caret")) return;
    showReading(part, reply);
    // a verdict given meanwhile was moved down by the reading above it: still in view
    const verdict = part.querySelector(".course-checker__verdict");
    if (verdict.dataset.state) verdict.scrollIntoView({ block: "nearest" });
  }

  /* "Read as: …" with the grader's MathML in the place of the expression (its text where there is none) */
  function readAs(exercise, reading) {
    const math = reading.read_as_mathml ? mathNode(reading.read_as_mathml) : null;
    if (!math && !reading.read_as) return null;
    const template = words(exercise).read_as;
    const [before, after] = template.includes("{expression}") ? template.split("{expression}") : [`${template}: `, ""];
    const line = el("span", "course-checker__read-as", before);
    line.append(math || el("span", "", reading.read_as), after);
    return line;
  }

  function showReading(part, reply) {
    const reading = part.querySelector(".course-checker__reading");
    reading.replaceChildren();
    delete reading.dataset.state;
    if (reply.code === 2) {   // refused before Check, in the grader's words
      reading.dataset.state = "refused";
      reading.append(caretNodes(reply.text || `[${reply.note}] ${reply.feedback}`));
      return;
    }
    const line = readAs(exerciseOf(part), reply);
    if (line) {
      reading.dataset.state = "read";
      reading.append(line);
    }
  }

  /* a verdict, and under it how the answer was read when that took a convention (as grader check prints it) */
  function showVerdictOf(part, kept) {
    showVerdict(part, { result: kept, text: kept.text });
    const line = readAs(exerciseOf(part), kept);
    if (line) part.querySelector(".course-checker__verdict").append(el("br"), line);
  }

  /* --- the exercise: scores, the commands that grade what the page graded */

  function showScores(exercise) {
    const work = workOf(exercise.dataset.exercise);
    const line = exercise.querySelector(".course-checker__scores");
    const max = partsOf(exercise).reduce((sum, part) => sum + Number(part.dataset.points), 0);
    line.hidden = work.best === null;
    line.textContent = work.best === null ? ""
      : fill(words(exercise).scores, { last: number(lastScore(work), exercise), best: number(work.best, exercise), max });
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
      const seed = course.seed ? `seed = ${tomlString(course.seed)}\n` : "";
      toml.textContent = toml.dataset.template.replace(/^(lang = .*\n)?/, (lang) => lang + seed);
    }
  }

  /* work on the exercise kept in another locale (each locale keeps its own) is said to be there, with a link to
     this page in that language */
  function showElsewhere(exercise) {
    const id = exercise.dataset.exercise;
    const place = exercise.querySelector(".course-checker__elsewhere");
    const w = words(exercise);
    const names = JSON.parse(exercise.dataset.languages || "{}");
    const langs = workElsewhere(store.all(), SITE, LANG, [id])[id] || [];
    place.replaceChildren(...langs.map((lang) => {
      const name = Object.hasOwn(names, lang) ? names[lang] : lang;
      const line = el("span", "course-checker__elsewhere-line", fill(w.elsewhere, { lang: name }));
      const href = alternate(lang);
      if (href) {
        const link = el("a", "", fill(w.elsewhere_link, { lang: name }));
        link.href = href;
        link.hreflang = lang;
        line.append(" ", link);
      }
      return line;
    }));
    place.hidden = !langs.length;
  }

  /* the boxes, verdicts and scores of the work kept for the seed in use (and where other locales keep theirs);
     ``typedFirst``: as the page opens (this file is loaded after the page is shown), a box the reader has typed in
     already keeps what was typed, and its verdict: its "typed" call, behind this one, keeps it */
  function restore(exercise, typedFirst = false) {
    const work = workOf(exercise.dataset.exercise);
    partsOf(exercise).forEach((part) => {
      if (typedFirst && boxOf(part).value) return;
      const text = work.answers[part.dataset.part] || "";
      const verdict = work.verdicts[part.dataset.part];
      boxOf(part).value = text;
      part.querySelector(".course-checker__reading").replaceChildren();
      if (verdict && verdict.answer === text) showVerdictOf(part, verdict);
      else clearVerdict(part);
    });
    exercise.querySelector(".course-checker__total").textContent = "";
    showScores(exercise);
    showElsewhere(exercise);
  }

  /* --- a variant: its data and figure in the place of the lesson's; prompts as grader show --seed gives them */

  const variantPlace = variants.place;   // checker.js's: a page opened with a seed kept is marked before work.js

  function lessonView(exercise) {
    const { lesson, view, drawing } = variantPlace(exercise);
    view.replaceChildren();
    view.hidden = true;
    variants.busy(view, false);
    delete view.dataset.state;
    if (lesson) lesson.hidden = false;
    if (drawing && drawing.lesson) drawing.replaceChildren(...drawing.lesson);
    if (drawing) {
      delete drawing.dataset.seed;
      variants.busy(drawing, false);
    }
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
    const reply = await runner.run("figure", [exercise.dataset.exercise, LANG, seed, exercise.dataset.figureWords]);
    if (exercise.dataset.seed !== seed) return;
    const svg = reply && reply.code === 0 && reply.svg ? svgNode(reply.svg) : null;
    if (!svg) {   // the lesson's figure again, said to be the lesson's
      variants.figureNotDrawn(exercise, seed, (reply && (reply.failed || whyNot(exercise, reply))) || "svg");
      return;
    }
    const narrow = reply.narrow ? svgNode(reply.narrow) : null;  // its phone layout, as the lesson's (course.css)
    drawing.replaceChildren(...(narrow ? [svg, narrow] : [svg]));
    variants.busy(drawing, false);
    drawing.dataset.seed = seed;
  }

  /* why the grader gave no variant: it could not start, it ran out of time, or it refuses the seed (its words) */
  const whyNot = (exercise, reply) => (reply.failed ? fill(words(exercise).failed, { error: reply.failed })
    : reply.timeout ? JSON.parse(exercise.dataset.timeout).feedback : reply.error);

  /* the exercise shown for the course's seed: a variant's data (grader show --seed) and figure, or the lesson's;
     until they arrive, the place says the variant is being drawn (never the lesson's data as the variant's) */
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
    variants.drawing(exercise, seed);
    if (!reply) {
      line.dataset.state = "checking";
      line.textContent = words(exercise).checking;
      reply = await runner.run("show", [exercise.dataset.exercise, LANG, seed]);
      if (course.seed !== seed) return;
    }
    if (!reply.result) {   // the grader could not say
      line.dataset.state = "error";
      line.textContent = whyNot(exercise, reply);
      if (reply.error) {   // a kept seed it refuses (the rules for seeds changed): back to the lesson's data
        keepSeed("");
        exercises.forEach((other) => { showSeed(other); restore(other); });
      } else variants.notDrawn(exercise, seed, reply.failed || line.textContent);   // no checker: the lesson's data
      return;
    }
    line.dataset.state = "done";
    line.dataset.seed = reply.result.seed;
    line.textContent = fill(words(exercise).variant_data, { seed: reply.result.seed });
    showVariant(exercise, reply.result, seed);
  }

  /* a variant's data (as grader show writes it), its prompts and its figure in the lesson's place */
  function showVariant(exercise, variant, seed) {
    const { lesson, view } = variantPlace(exercise);
    const title = fill(words(exercise).variant_data, { seed: variant.seed });
    view.setAttribute("aria-label", title);
    const list = el("dl", "course-checker__data");
    Object.entries(variant.data_text).forEach(([name, value]) => {   // as grader show writes each line
      list.append(el("dt", "", (variant.data_labels || {})[name] || name), el("dd", "", value));
    });
    view.replaceChildren(el("p", "course-checker__variant-title", title), list);
    view.hidden = false;
    variants.busy(view, false);
    view.dataset.state = "done";
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
    variants.drawing(exercise, wanted);
    const reply = await runner.run("show", [exercise.dataset.exercise, LANG, wanted]);
    if (!reply.result) {
      line.dataset.state = "error";
      line.textContent = whyNot(exercise, reply);
      if (!reply.error) variants.notDrawn(exercise, wanted, reply.failed || line.textContent);   // no checker to draw it
      else if (course.seed) {   // a seed it refuses: the variant in use again, the line saying why not
        const seed = course.seed;
        const again = await runner.run("show", [exercise.dataset.exercise, LANG, seed]);
        if (course.seed === seed && again.result) showVariant(exercise, again.result, seed);
        else if (course.seed === seed) variants.notDrawn(exercise, seed, again.failed || whyNot(exercise, again));
      } else lessonView(exercise);
      return;
    }
    keepSeed(reply.result.seed);
    exercises.forEach((other) => {
      showSeed(other, other === exercise ? reply : undefined);
      restore(other);
    });
  }

  /* New variant: a seed drawn for the student (another than the one in use), then as if they had typed it */
  async function newVariant(exercise, random) {
    let seed = drawSeed(random);
    while (seed === course.seed) seed = drawSeed(random);
    exercise.querySelector(".course-checker__seed").value = seed;
    await useSeed(exercise);
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
    const total = { done: 0, last: 0, best: 0, max: 0, unchecked: 0 };
    const rows = [...progress.querySelectorAll("tr[data-exercise]")];
    const score = (value, max) => `${number(value, progress)}/${max}`;
    rows.forEach((row) => {
      const id = row.dataset.exercise;
      const work = workOf(id);
      const parts = COURSE[id] || [];
      const finished = parts.length && parts.every((part) => current(work, part) && current(work, part).correct);
      const state = finished ? "done" : answered(work) ? "started" : "new";
      const max = Number(row.dataset.max);
      const last = lastScore(work);
      const checkedAny = parts.some((part) => current(work, part));
      Object.assign(total, { done: total.done + (state === "done"), last: total.last + last,
                             best: total.best + (work.best ?? 0), max: total.max + max,
                             unchecked: total.unchecked + unchecked(work).length });
      row.dataset.state = state;
      row.querySelector(".course-progress__state").textContent = w[`state_${state}`];
      row.querySelector(".course-progress__last").textContent = checkedAny ? score(last, max) : "–";
      row.querySelector(".course-progress__best").textContent = work.best === null ? "–" : score(work.best, max);
    });
    const summary = fill(w.progress_summary, { done: total.done, total: rows.length, last: number(total.last, progress),
                                               best: number(total.best, progress), max: total.max });
    progress.querySelector(".course-progress__summary").textContent = total.unchecked
      ? `${summary} ${fill(w.progress_unchecked, { count: total.unchecked })}` : summary;
  }

  /* --- what checker.js calls */

  function open() {   // the page as the work kept left it
    course.seed = readSeed();
    exercises.forEach((exercise) => {
      restore(exercise, true);
      if (course.seed) showSeed(exercise);
      else lessonView(exercise);   // checker.js marked a seed kept that is none (or no longer) kept
    });
    if (progress) showProgress();
  }

  function typed(part, value) {   // kept at once; read as the grader reads it once the typing pauses
    const exercise = exerciseOf(part);
    saveWork(exercise.dataset.exercise, (work) => {
      if (value) work.answers[part.dataset.part] = value;
      else delete work.answers[part.dataset.part];
      delete work.verdicts[part.dataset.part];
    });
    showScores(exercise);
    clearTimeout(part.pause);
    part.pause = setTimeout(() => preview(part), PAUSE);
  }

  function checked(part, answer, result, text) {   // kept with its answer, scored, in the command shown
    const exercise = exerciseOf(part);
    const kept = { answer, score: Number(result.score), max_score: result.max_score, correct: result.correct,
                   note: result.note || "", feedback: result.feedback || "", column: result.column ?? null, text };
    if (isText(result.read_as)) kept.read_as = result.read_as;
    if (isText(result.read_as_mathml)) kept.read_as_mathml = result.read_as_mathml;
    saveWork(exercise.dataset.exercise, (work) => {
      work.answers[part.dataset.part] = answer;
      work.verdicts[part.dataset.part] = kept;
      work.best = Math.max(work.best ?? 0, lastScore(work));
    });
    if (kept.read_as || kept.read_as_mathml) showVerdictOf(part, kept);
    showScores(exercise);
    showCommands(exercise, part.dataset.part, answer);
  }

  course.seed = readSeed();
  return { open, typed, checked, download, load, clear, useSeed, newVariant, backToLesson };
}
