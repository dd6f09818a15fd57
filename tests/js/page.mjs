/* The page work.js works on, without a browser: work.js and checker.js's workKeys as the site serves them (the
   files themselves), given a page of stand-in elements (El), a localStorage of its own (Local) and a runner that
   answers as the grader would. What the tests read is what work.js writes: the text of the scores line and of
   the home page's progress, the names and values in localStorage, the file "Download my answers" makes. */
import { readFileSync } from "node:fs";
import vm from "node:vm";

const ASSETS = new URL("../../hooks/checker/assets/", import.meta.url);
const source = (name) => readFileSync(new URL(name, ASSETS), "utf8");

/* work.js is a module with no import of its own: imported from its text, as the browser imports it; COURSE_WORK_JS
   names another copy (tests/hooks/test_work_js.py: the one the build serves, minified) */
const workText = process.env.COURSE_WORK_JS ? readFileSync(process.env.COURSE_WORK_JS, "utf8") : source("work.js");
const module = await import(`data:text/javascript;base64,${Buffer.from(workText).toString("base64")}`);
export const { default: work, tomlString, tomlKey, shellWord, drawSeed } = module;

/* checker.js is a classic script (joined with loader.js by the build); its top level only declares functions */
export const { workKeys, variantPlaces, workElsewhere } = vm.runInNewContext(
  `${source("checker.js")}\n({ workKeys, variantPlaces, workElsewhere });`, { URL });

/* checker.js's own helpers, as work.js is given them */
export const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
export const number = (x, exercise) => String(Math.round(x * 1000) / 1000).replace(".", exercise.dataset.decimal || ".");

export const WORDS = {
  scores: "last {last}, best {best} of {max}", progress_summary: "{done} of {total} done, {last}/{max} (best {best}/{max})",
  progress_unchecked: "{count} not checked",
  state_done: "done", state_started: "started", state_new: "new", nothing: "nothing to download", undo: "Undo",
  cleared: "cleared", cleared_all: "all cleared", loaded: "{count} from {file}", load_failed: "cannot load: {error}",
  load_lang: "{file} is in {lang}", checking: "Checking…", variant_data: "variant {seed}", variant_prompt: "{prompt}",
  lesson_again: "the lesson's data", read_as: "Read as {expression}", failed: "failed: {error}", not_kept: "not kept",
  drawing: "drawing {seed}…", not_drawn: "{seed} not drawn ({error}): the lesson's data",
  elsewhere: "work in {lang} kept there", elsewhere_link: "open in {lang}",
};

/* an element: its dataset, text and children; querySelector finds one (made the first time it is asked for),
   querySelectorAll the rows a test gives it */
export class El {
  constructor(tag = "div", className = "", text = undefined) {
    Object.assign(this, { tagName: tag, className, dataset: {}, hidden: false, value: "", children: [], found: new Map(),
                          lists: {}, attributes: {}, clicked: 0, listeners: [] });
    this.textContent = text === undefined ? "" : text;
  }
  querySelector(selector) {
    if (!this.found.has(selector)) this.found.set(selector, new El());
    return this.found.get(selector);
  }
  querySelectorAll(selector) { return this.lists[selector] || []; }
  closest() { return null; }
  replaceChildren(...nodes) { this.children = nodes; }
  append(...nodes) { this.children.push(...nodes); }
  prepend(...nodes) { this.children.unshift(...nodes); }
  after() {}
  before() {}
  removeAttribute(name) { delete this.attributes[name]; }
  get childNodes() { return this.children; }
  remove() {}
  setAttribute(name, value) { this.attributes[name] = value; }
  addEventListener(type, listener) { if (type === "click") this.listeners.push(listener); }
  click() {
    this.clicked += 1;
    this.listeners.forEach((listener) => listener());
  }
  /* the text a line shows: its own, or its children's (say() writes a span) */
  get shown() { return this.textContent || this.children.map((node) => node.shown ?? String(node)).join(""); }
}

/* localStorage: the names are its own enumerable keys (Object.keys lists them, as in a browser) */
export class Local {
  getItem(name) { return Object.hasOwn(this, name) ? this[name] : null; }
  setItem(name, value) { this[name] = String(value); }
  removeItem(name) { delete this[name]; }
}

/* the grader's replies to what work.js asks: "show" gives a variant of any seed, "read" reads nothing; ``replies``
   ({action: (args) => reply}) answer as a test says (grader.web.load's reply to a file, say) */
export const standIn = (replies = {}) => ({
  async run(action, args) {
    if (replies[action]) return replies[action](args);
    if (action === "show") return { code: 0, result: { seed: args[2], data_text: {}, data_labels: {}, parts: [] } };
    return { code: 1 };
  },
});

/* a page of the course ``course`` ({exercise: [parts]}, in order) in ``lang``: the exercises ``shown`` on it
   (with their parts' points), and the home page's progress table if ``home``; the site at ``root``; ``decimal``
   and ``languages``: the decimal mark and the languages' names the build gives the page (workspace.py) */
export const LANGUAGES = { en: "English", fr: "French", ja: "Japanese" };

export function openPage({ course, lang = "en", local = new Local(), shown = [], points = {}, home = false, root = "/course/",
                           languages = LANGUAGES, decimal = ".", replies = {} }) {
  const base = new URL(`http://127.0.0.1${root}assets/checker/`);
  const { SITE, KEY } = workKeys(base, lang);
  const parts = new Map();
  const exercises = shown.map((id) => {
    const exercise = new El("div", "course-checker-exercise");
    Object.assign(exercise.dataset, { exercise: id, lang, course: JSON.stringify(course), timeout: "{}", decimal,
                                      languages: JSON.stringify(languages) });
    course[id].forEach((part) => {
      const el = new El("div", "course-checker");
      Object.assign(el.dataset, { exercise: id, part, points: String((points[id] || {})[part] ?? 1) });
      parts.set(`${id}/${part}`, el);
    });
    return exercise;
  });
  let progress = null;
  if (home) {
    progress = new El("div", "course-progress");
    Object.assign(progress.dataset, { lang, decimal, course: JSON.stringify(course), languages: JSON.stringify(languages) });
    progress.lists["tr[data-exercise]"] = Object.keys(course).map((id) => {   // its maximum: its parts' points
      const row = new El("tr");
      const max = course[id].reduce((sum, part) => sum + ((points[id] || {})[part] ?? 1), 0);
      Object.assign(row.dataset, { exercise: id, max: String(max) });
      return row;
    });
  }
  const panels = [...exercises, progress].filter(Boolean);
  const partsOf = (exercise) => [...parts.values()].filter((part) => part.dataset.exercise === exercise.dataset.exercise);
  const exerciseOf = (part) => exercises.find((exercise) => exercise.dataset.exercise === part.dataset.exercise);
  const storage = {
    lost: 0,
    call(action) {
      try {
        return action(local);
      } catch (error) {
        this.lost += 1;
        return null;
      }
    },
  };
  const el = (tag, className, text) => new El(tag, className, text);
  const core = {
    runner: standIn(replies), words: () => WORDS, fill, number, el, variants: variantPlaces({ el, words: () => WORDS, fill }),
    workElsewhere, alternate: (other) => (other === "ja" ? null : `http://127.0.0.1${root}${other}/page/`),
    LANG: lang,
    SITE, KEY, storage, exercises, progress, panels, partsOf, exerciseOf,
    boxOf: (part) => part.querySelector(".course-checker__answer"), caretNodes: (text) => new El("div", "", text),
    showVerdict: (part, reply) => { part.verdict = reply; }, clearVerdict: (part) => { part.verdict = null; },
  };
  const api = work(core);
  const part = (id) => {
    if (!parts.has(id)) throw new Error(`no part ${id} on this page`);
    return parts.get(id);
  };
  const exercise = (id) => exercises.find((one) => one.dataset.exercise === id);
  return {
    api, local, SITE, KEY, storage, progress, part, exercise, panel: panels[0],
    /* the student types ``text`` in the part's box (its reading after a pause is not waited for) */
    type(id, text) {
      const el = part(id);
      el.querySelector(".course-checker__answer").value = text;
      api.typed(el, text);
      clearTimeout(el.pause);
    },
    /* Check gave ``score`` of ``max`` for ``answer`` */
    checked(id, answer, score, max = 1) {
      const el = part(id);
      el.querySelector(".course-checker__answer").value = answer;
      api.checked(el, answer, { score, max_score: max, correct: score === max, note: "", feedback: "", column: null }, "");
    },
    /* the student's seed (Use), every exercise following */
    async useSeed(seed) {
      const first = exercises[0];
      first.querySelector(".course-checker__seed").value = seed;
      await api.useSeed(first);
    },
    /* New variant on the first exercise; ``random`` fills the Uint32Array the seed is drawn from (default: crypto) */
    newVariant: (random) => api.newVariant(exercises[0], random),
    scores: (id) => exercise(id).querySelector(".course-checker__scores"),
    box: (id) => part(id).querySelector(".course-checker__answer").value,
    message: () => panels[0].querySelector(".course-checker__message").shown,
    /* "Load answers" of a file ``name`` holding ``text`` (the grader's reading of it: ``replies.load``) */
    load: (name, text = "") => api.load(panels[0], { name, arrayBuffer: async () => new TextEncoder().encode(text).buffer }),
    /* the home page's rows: [state, last score, best score] each, and its summary line */
    progressRows: () => progress.querySelectorAll("tr[data-exercise]").map((row) => [row.dataset.state,
      row.querySelector(".course-progress__last").textContent, row.querySelector(".course-progress__best").textContent]),
    summary: () => progress.querySelector(".course-progress__summary").textContent,
    /* "Download my answers": the file the browser is given to save, or null when none is */
    async download() {
      const saved = { setTimeout: globalThis.setTimeout, document: globalThis.document, create: URL.createObjectURL };
      let blob = null;
      const links = [];
      globalThis.setTimeout = () => 0;   // the link's revocation, a minute later
      globalThis.document = { body: { append: (link) => links.push(link) } };
      URL.createObjectURL = (made) => {
        blob = made;
        return "blob:answers";
      };
      try {
        await api.download(panels[0]);
      } finally {
        Object.assign(globalThis, { setTimeout: saved.setTimeout, document: saved.document });
        URL.createObjectURL = saved.create;
      }
      if (!blob) return null;
      const [link] = links;
      if (!link || link.clicked !== 1 || link.href !== "blob:answers") throw new Error("the file was not offered to save");
      return { name: link.download, type: blob.type, bytes: new Uint8Array(await blob.arrayBuffer()), text: await blob.text() };
    },
  };
}
