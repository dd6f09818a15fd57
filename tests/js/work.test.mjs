/* work.js without a browser (Node's test runner: node --test tests/js/): the file "Download my answers" writes,
   the names the work is kept under in localStorage, the scores and the progress the page shows. That the grader
   reads the file back answer for answer is tests/hooks/test_work_js.py's (the grader's own reader). */
import assert from "node:assert/strict";
import test from "node:test";

import { drawSeed, Local, openPage, shellWord, tomlKey, tomlString, workElsewhere, workKeys } from "./page.mjs";

const COURSE = { "ex-a": ["p1", "p2"], "ex-b": ["q1"] };
const page = (options = {}) => openPage({ course: COURSE, shown: ["ex-a", "ex-b"], ...options });

/* --- the file */

test("a TOML string escapes quotes, backslashes and every control character, and keeps the rest", () => {
  assert.equal(tomlString(""), '""');
  assert.equal(tomlString('say "hi"'), '"say \\"hi\\""');
  assert.equal(tomlString("a\\b"), '"a\\\\b"');
  assert.equal(tomlString('"""'), '"\\"\\"\\""');
  assert.equal(tomlString("1\n2\r\n3\t4\b5\f6"), '"1\\n2\\r\\n3\\t4\\b5\\f6"');
  assert.equal(tomlString("\u0000\u0001\u001f\u007f"), '"\\u0000\\u0001\\u001f\\u007f"');
  assert.equal(tomlString("x² ≤ π · 角 😀 \u00a0"), '"x² ≤ π · 角 😀 \u00a0"');
  // a written string never holds a raw control character, so it stays on its one line
  assert.doesNotMatch(tomlString(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i), 127)), /[\u0000-\u001f\u007f]/);
});

test("a key is bare when TOML allows it, a quoted string otherwise", () => {
  assert.equal(tomlKey("ex-a_1"), "ex-a_1");
  assert.equal(tomlKey("ex.1"), '"ex.1"');
  assert.equal(tomlKey("é"), '"é"');
  assert.equal(tomlKey(""), '""');
});

test("a word for the shell is quoted when it needs to be", () => {
  assert.equal(shellWord("x^2+1"), "'x^2+1'");
  assert.equal(shellWord("3/4"), "3/4");
  assert.equal(shellWord("it's"), "'it'\\''s'");
});

test("the downloaded file: the language, one table per exercise in the course's order, blank answers left out", async () => {
  const p = page();
  p.type("ex-b/q1", 'say "hi"\\');
  p.type("ex-a/p2", "x^2\n+1");
  p.type("ex-a/p1", "   ");   // blank: not an answer
  const file = await p.download();
  assert.equal(file.name, "answers.toml");
  assert.equal(file.type, "application/toml");
  assert.equal(file.text, 'lang = "en"\n\n[ex-a]\np2 = "x^2\\n+1"\n\n[ex-b]\nq1 = "say \\"hi\\"\\\\"\n');
});

test("the file is UTF-8, and names the seed of the variant in use", async () => {
  const p = page({ lang: "fr" });
  await p.useSeed('Zoë "7"');
  p.type("ex-a/p1", "½ · π");
  const file = await p.download();
  assert.equal(file.text, 'lang = "fr"\nseed = "Zoë \\"7\\""\n\n[ex-a]\np1 = "½ · π"\n');
  assert.deepEqual([...file.bytes.slice(-10)], [...Buffer.from('"½ · π"\n')].slice(-10));
});

test("with no answer there is no file: the page says there is nothing to download", async () => {
  const p = page();
  p.type("ex-a/p1", "1");
  p.type("ex-a/p1", "");
  assert.equal(await p.download(), null);
  assert.equal(p.message(), "nothing to download");
});

/* --- the names it keeps */

test("the work is kept under the site's and locale's names, per exercise, the seed beside it", async () => {
  const p = page();
  assert.equal(p.KEY("seed"), "course-work:/course/:en:seed");
  p.type("ex-a/p1", "2");
  p.type("ex-b/q1", "3");
  await p.useSeed("s1");
  assert.deepEqual(Object.keys(p.local).sort(), ["course-work:/course/:en:exercise:ex-a", "course-work:/course/:en:exercise:ex-b",
                                                  "course-work:/course/:en:seed"]);
  assert.equal(p.local["course-work:/course/:en:seed"], '"s1"');
  assert.deepEqual(JSON.parse(p.local["course-work:/course/:en:exercise:ex-a"]),
                   { v: 1, variants: { "": { answers: { p1: "2" }, verdicts: {}, best: null } } });
});

test("the site's root comes from the script's folder, two folders down", () => {
  assert.equal(workKeys(new URL("https://example.org/course/assets/checker/checker-1.js"), "ja").KEY("seed"),
               "course-work:/course/:ja:seed");
  assert.equal(workKeys(new URL("http://127.0.0.1:8000/assets/checker/"), "en").SITE, "course-work:/:");
});

test("another seed's work is its own: each seed finds its answers again", async () => {
  const p = page();
  p.type("ex-a/p1", "lesson's answer");
  await p.useSeed("s1");
  assert.equal(p.box("ex-a/p1"), "");
  p.type("ex-a/p1", "s1's answer");
  await p.useSeed("s2");
  assert.equal(p.box("ex-a/p1"), "");
  await p.useSeed("s1");
  assert.equal(p.box("ex-a/p1"), "s1's answer");
  await p.api.backToLesson(p.exercise("ex-a"));
  assert.equal(p.box("ex-a/p1"), "lesson's answer");
  assert.equal(p.local["course-work:/course/:en:seed"], undefined);
});

test("another locale's work is its own, in the same browser", async () => {
  const local = new Local();
  const en = page({ local });
  en.type("ex-a/p1", "0.5");
  const fr = page({ local, lang: "fr" });
  fr.api.open();
  assert.equal(fr.box("ex-a/p1"), "");
  fr.type("ex-a/p1", "0,5");
  const again = page({ local });
  again.api.open();
  assert.equal(again.box("ex-a/p1"), "0.5");
  assert.equal((await again.download()).text, 'lang = "en"\n\n[ex-a]\np1 = "0.5"\n');
});

test("what a reader typed before the kept work was put back stays, and is kept", async () => {
  const local = new Local();
  const en = page({ local });
  en.type("ex-a/p1", "0.5");
  en.type("ex-a/p2", "0.25");
  const quick = page({ local });
  quick.part("ex-a/p1").querySelector(".course-checker__answer").value = "0.75";   // typed as the page opened
  quick.api.open();
  assert.equal(quick.box("ex-a/p1"), "0.75");
  assert.equal(quick.box("ex-a/p2"), "0.25");   // the boxes not typed in are put back
  quick.type("ex-a/p1", "0.75");                 // its "typed" call, queued behind the opening
  const again = page({ local });
  again.api.open();
  assert.deepEqual([again.box("ex-a/p1"), again.box("ex-a/p2")], ["0.75", "0.25"]);
});

test("another site's work is its own, and clearing all leaves it", async () => {
  const local = new Local();
  const here = page({ local });
  here.type("ex-a/p1", "1");
  const other = page({ local, root: "/other/" });
  other.type("ex-a/p1", "2");
  page({ local, lang: "fr" }).type("ex-b/q1", "3");
  here.api.clear(here.panel, null);
  assert.deepEqual(Object.keys(local), ["course-work:/other/:en:exercise:ex-a"]);
});

test("clearing one exercise leaves the others, and Undo puts it back", async () => {
  const p = page();
  p.type("ex-a/p1", "1");
  p.type("ex-b/q1", "2");
  p.api.clear(p.exercise("ex-a"), ["ex-a"]);
  assert.equal(p.box("ex-a/p1"), "");
  assert.deepEqual(Object.keys(p.local), ["course-work:/course/:en:exercise:ex-b"]);
  const undo = p.exercise("ex-a").querySelector(".course-checker__message").children.find((node) => node.tagName === "button");
  assert.ok(undo, "clearing offers Undo");
  const reopened = page({ local: p.local });
  reopened.api.open();
  assert.equal(reopened.box("ex-a/p1"), "");
  assert.equal(reopened.box("ex-b/q1"), "2");
  undo.click();
  assert.equal(p.box("ex-a/p1"), "1");
  const undone = page({ local: p.local });
  undone.api.open();
  assert.equal(undone.box("ex-a/p1"), "1");
});

test("what the page reopens with is what was kept; a damaged record is none", () => {
  const local = new Local();
  const p = page({ local });
  p.checked("ex-a/p1", "2", 1);
  p.type("ex-a/p2", "3");
  const again = page({ local });
  again.api.open();
  assert.equal(again.box("ex-a/p1"), "2");
  assert.equal(again.part("ex-a/p1").verdict.result.answer, "2");
  assert.equal(again.box("ex-a/p2"), "3");
  local["course-work:/course/:en:exercise:ex-a"] = '{"v": 1, "variants": {"": {"answers": {"p1": 5}}}}';
  const damaged = page({ local });
  damaged.api.open();
  assert.equal(damaged.box("ex-a/p1"), "");
});

/* --- the progress it reports */

test("a right answer changed to a wrong one: the last score drops, the best stays", () => {
  const p = page({ points: { "ex-a": { p1: 2, p2: 1 } } });
  p.api.open();
  assert.equal(p.scores("ex-a").hidden, true);
  p.checked("ex-a/p1", "right", 2, 2);
  assert.equal(p.scores("ex-a").textContent, "last 2, best 2 of 3");
  p.checked("ex-a/p2", "right", 1, 1);
  assert.equal(p.scores("ex-a").textContent, "last 3, best 3 of 3");
  p.checked("ex-a/p1", "wrong", 0, 2);
  assert.equal(p.scores("ex-a").textContent, "last 1, best 3 of 3");
  p.checked("ex-a/p1", "half", 0.5, 2);
  assert.equal(p.scores("ex-a").textContent, "last 1.5, best 3 of 3");
  assert.equal(p.scores("ex-a").hidden, false);
});

test("the last score is the sum of the parts' last verdicts; typing takes a part's verdict away", () => {
  const p = page({ points: { "ex-a": { p1: 2, p2: 2 } } });
  p.checked("ex-a/p1", "a", 1.25, 2);
  p.checked("ex-a/p2", "b", 0.5, 2);
  assert.equal(p.scores("ex-a").textContent, "last 1.75, best 1.75 of 4");
  p.type("ex-a/p1", "a2");
  assert.equal(p.scores("ex-a").textContent, "last 0.5, best 1.75 of 4");
  const kept = JSON.parse(p.local["course-work:/course/:en:exercise:ex-a"]).variants[""];
  assert.deepEqual(Object.keys(kept.verdicts), ["p2"]);
  assert.equal(kept.best, 1.75);
});

test("the home page: each exercise done, started or new, its last and best scores, and how many are done", () => {
  const local = new Local();
  const p = page({ local });
  p.checked("ex-a/p1", "1", 1);
  p.checked("ex-a/p2", "2", 1);
  p.type("ex-b/q1", "3");
  const home = openPage({ course: COURSE, local, home: true });
  home.api.open();
  assert.deepEqual(home.progressRows(), [["done", "2/2", "2/2"], ["started", "–", "–"]]);
  assert.equal(home.summary(), "1 of 2 done, 2/3 (best 2/3) 1 not checked");
  p.checked("ex-a/p2", "wrong", 0);   // a part right no more: started again, the best score stays
  const later = openPage({ course: COURSE, local, home: true });
  later.api.open();
  assert.deepEqual(later.progressRows(), [["started", "1/2", "2/2"], ["started", "–", "–"]]);
  assert.equal(later.summary(), "0 of 2 done, 1/3 (best 2/3) 1 not checked");
});

/* what grader submit gives a file: each answer it holds scored as Check scored that answer (the stand-in's grader) */
function fileScore(text, checks) {
  let table = "";
  let total = 0;
  text.split("\n").forEach((line) => {
    const head = line.match(/^\[(.+)\]$/);
    if (head) table = head[1];
    const entry = line.match(/^(\w+) = "(.*)"$/);
    if (entry && table) total += checks[`${table}/${entry[1]}`][entry[2]];
  });
  return total;
}

test("a right answer changed to a wrong one: the home page's last score drops below the best, and its total is the file's", async () => {
  const local = new Local();
  const points = { "ex-a": { p1: 3, p2: 3, p3: 3 }, "ex-b": { q1: 17 } };
  const course = { "ex-a": ["p1", "p2", "p3"], "ex-b": ["q1"] };
  const checks = { "ex-a/p1": { right: 3, wrong: 0 }, "ex-a/p2": { right: 3 }, "ex-a/p3": { right: 3 },
                   "ex-b/q1": { right: 17, half: 8.5 } };
  const p = openPage({ course, local, points, shown: ["ex-a", "ex-b"] });
  const check = (id, answer) => p.checked(id, answer, checks[id][answer], points[id.split("/")[0]][id.split("/")[1]]);
  ["ex-a/p1", "ex-a/p2", "ex-a/p3", "ex-b/q1"].forEach((id) => check(id, "right"));
  const before = openPage({ course, local, points, home: true });
  before.api.open();
  assert.deepEqual(before.progressRows(), [["done", "9/9", "9/9"], ["done", "17/17", "17/17"]]);
  assert.equal(before.summary(), "2 of 2 done, 26/26 (best 26/26)");
  check("ex-a/p1", "wrong");   // the case: best 9/9 and 26/26, while the file scores 23/26
  check("ex-b/q1", "half");
  const home = openPage({ course, local, points, home: true });
  home.api.open();
  assert.deepEqual(home.progressRows(), [["started", "6/9", "9/9"], ["started", "8.5/17", "17/17"]]);
  assert.equal(home.summary(), "0 of 2 done, 14.5/26 (best 26/26)");
  assert.equal(fileScore((await p.download()).text, checks), 14.5);
  assert.equal(p.scores("ex-a").textContent, "last 6, best 9 of 9");   // the exercise's page says the same
});

test("the home page writes its scores with the page's decimal mark", () => {
  const local = new Local();
  const p = openPage({ course: COURSE, local, lang: "fr", shown: ["ex-a"], points: { "ex-a": { p1: 2, p2: 2 } } });
  p.checked("ex-a/p1", "x", 1.5, 2);
  const home = openPage({ course: COURSE, local, lang: "fr", home: true, decimal: ",", points: { "ex-a": { p1: 2, p2: 2 } } });
  home.api.open();
  assert.deepEqual(home.progressRows(), [["started", "1,5/4", "1,5/4"], ["new", "–", "–"]]);
  assert.equal(home.summary(), "0 of 2 done, 1,5/5 (best 1,5/5)");
});

test("a verdict that is not the kept answer's counts for nothing, on the home page as on the exercise", () => {
  const local = new Local();
  local["course-work:/course/:en:exercise:ex-a"] = JSON.stringify({ v: 1, variants: { "": {
    answers: { p1: "now" }, best: 1,
    verdicts: { p1: { answer: "before", score: 1, max_score: 1, correct: true, note: "", feedback: "", column: null, text: "" } } } } });
  const p = openPage({ course: COURSE, local, shown: ["ex-a"], home: true });
  p.api.open();
  assert.deepEqual(p.progressRows(), [["started", "–", "1/2"], ["new", "–", "–"]]);
  assert.equal(p.summary(), "0 of 2 done, 0/3 (best 1/3) 1 not checked");
  assert.equal(p.scores("ex-a").textContent, "last 0, best 1 of 2");
});

test("the progress follows the seed in use: another variant's work is not this one's", async () => {
  const local = new Local();
  const p = page({ local });
  const home = () => {
    const opened = openPage({ course: COURSE, local, home: true });
    opened.api.open();
    return opened.progressRows();
  };
  p.checked("ex-b/q1", "1", 1);
  await p.useSeed("s1");
  assert.deepEqual(home(), [["new", "–", "–"], ["new", "–", "–"]]);
  p.checked("ex-a/p1", "s1's", 1);
  assert.deepEqual(home(), [["started", "1/2", "1/2"], ["new", "–", "–"]]);
  await p.api.backToLesson(p.exercise("ex-a"));
  assert.deepEqual(home(), [["new", "–", "–"], ["done", "1/1", "1/1"]]);
});

/* --- Load answers */

test("a file written on another language's pages is named by that language's name, not its code", async () => {
  const lang = (code) => ({ load: () => ({ code: 0, result: { lang: code, seed: null, answers: { "ex-a": { p1: "1" } } } }) });
  const p = page({ replies: lang("fr") });
  await p.load("mine.toml");
  assert.equal(p.message(), "mine.toml is in French");
  assert.equal(p.box("ex-a/p1"), "");   // nothing loaded
  const unnamed = page({ replies: lang("ko"), languages: {} });   // a language the page has no name for: its code
  await unnamed.load("k.toml");
  assert.equal(unnamed.message(), "k.toml is in ko");
  const same = page({ replies: lang("en") });
  await same.load("mine.toml");
  assert.equal(same.message(), "1 from mine.toml Undo");
  assert.equal(same.box("ex-a/p1"), "1");
});

test("loading over typed answers can be undone, in the page and in storage", async () => {
  const p = page({ replies: { load: () => ({ code: 0, result: { lang: "en", seed: null, answers: { "ex-a": { p1: "9" } } } }) } });
  p.type("ex-a/p1", "1");
  await p.load("mine.toml");
  assert.equal(p.box("ex-a/p1"), "9");
  const undo = p.panel.querySelector(".course-checker__message").children.find((node) => node.tagName === "button");
  assert.ok(undo, "loading offers Undo");
  undo.click();
  assert.equal(p.box("ex-a/p1"), "1");
  const undone = page({ local: p.local });
  undone.api.open();
  assert.equal(undone.box("ex-a/p1"), "1");
});

test("storage that cannot be written: the page goes on with what it holds", async () => {
  const full = new Local();
  full.setItem = () => { throw new Error("QuotaExceededError"); };
  const p = page({ local: full });
  p.type("ex-a/p1", "1");
  assert.ok(p.storage.lost > 0);
  assert.equal((await p.download()).text, 'lang = "en"\n\n[ex-a]\np1 = "1"\n');
});

/* --- New variant: a seed drawn for the student, kept as a typed one is */

const values = (...draws) => (array) => { array[0] = draws.shift(); };

test("a drawn seed is six digits, never starting with 0, with no modulo bias", () => {
  assert.equal(drawSeed(values(0)), "100000");
  assert.equal(drawSeed(values(899999)), "999999");
  assert.equal(drawSeed(values(900000 + 42)), "100042");
  const limit = Math.floor(2 ** 32 / 900000) * 900000;
  assert.equal(drawSeed(values(limit, 2 ** 32 - 1, limit - 1)), "999999");   // past the last whole span: again
  for (let i = 0; i < 200; i += 1) assert.match(drawSeed(), /^[1-9][0-9]{5}$/);   // the browser's crypto (Node's)
});

test("New variant keeps the seed it drew as a typed one: in storage, the seed box, the commands and the file", async () => {
  const p = page({ lang: "fr" });
  await p.newVariant(values(123456 - 100000));
  assert.equal(p.local["course-work:/course/:fr:seed"], '"123456"');
  for (const id of ["ex-a", "ex-b"]) {
    assert.equal(p.exercise(id).querySelector(".course-checker__seed").value, "123456");
    assert.equal(p.exercise(id).querySelector("pre[data-submit] > code").textContent,
                 "grader submit answers.toml --lang fr --seed 123456");
  }
  p.type("ex-b/q1", "0,5");
  assert.equal((await p.download()).text, 'lang = "fr"\nseed = "123456"\n\n[ex-b]\nq1 = "0,5"\n');
  const again = page({ lang: "fr", local: p.local });
  again.api.open();
  assert.equal(again.box("ex-b/q1"), "0,5");   // the variant's work, found again on the next visit
});

test("New variant draws another seed than the one in use", async () => {
  const p = page();
  await p.useSeed("100007");
  await p.newVariant(values(7, 7, 8));
  assert.equal(p.local["course-work:/course/:en:seed"], '"100008"');
});

/* --- a variant being drawn: never the lesson's data as the variant's */

/* a "show" the test answers when it says (``answer()``), as the grader does once it has started */
function later() {
  const asked = [];
  const replies = { show: (args) => new Promise((resolve) => asked.push({ args, resolve })) };
  const answer = async (reply) => {
    const { args, resolve } = asked.shift();
    resolve(reply || { code: 0, result: { seed: args[2], data_text: { x: "7" }, data_labels: {}, parts: [] } });
    await new Promise((done) => setTimeout(done, 0));
  };
  return { replies, answer, asked };
}
const placeOf = (p, id) => {
  const exercise = p.exercise(id);
  const view = exercise.querySelector(".course-checker__variant-data");
  return { view, lesson: exercise.querySelector(".course-exercise__data"), busy: view.attributes["aria-busy"],
           state: view.dataset.state, said: view.children.map((node) => node.shown).join(" | ") };
};

test("while a variant is drawn its place says so, busy, and the lesson's data is hidden until the variant's comes", async () => {
  const grader = later();
  const p = page({ replies: grader.replies });
  const asked = p.newVariant(values(4242));
  const drawing = placeOf(p, "ex-a");
  assert.deepEqual([drawing.state, drawing.busy, drawing.said, drawing.view.hidden, drawing.lesson.hidden],
                   ["drawing", "true", "drawing 104242…", false, true]);
  await grader.answer();   // the variant, for the exercise the button is in: every exercise follows
  await asked;
  assert.equal(placeOf(p, "ex-b").state, "drawing");
  await grader.answer();
  for (const id of ["ex-a", "ex-b"]) {
    const shown = placeOf(p, id);
    assert.deepEqual([shown.state, shown.busy, shown.view.hidden, shown.lesson.hidden], ["done", undefined, false, true]);
    assert.equal(shown.said, "variant 104242 | x7");
  }
});

test("a page opened with a seed kept shows the variant being drawn, not the lesson's data, until it comes", async () => {
  const local = new Local();
  local.setItem("course-work:/course/:en:seed", '"s9"');
  const grader = later();
  const p = page({ local, replies: grader.replies });
  p.api.open();
  const drawing = placeOf(p, "ex-a");
  assert.deepEqual([drawing.state, drawing.busy, drawing.lesson.hidden], ["drawing", "true", true]);
  assert.deepEqual(grader.asked.map(({ args }) => args[2]), ["s9", "s9"]);
  await grader.answer();
  assert.deepEqual([placeOf(p, "ex-a").state, placeOf(p, "ex-a").busy], ["done", undefined]);
});

test("a variant that cannot be drawn (no checker) is said to be, beside the lesson's data shown again", async () => {
  const grader = later();
  const p = page({ replies: grader.replies });
  const asked = p.useSeed("s5");
  await grader.answer({ failed: "no worker" });
  await asked;
  const shown = placeOf(p, "ex-a");
  assert.deepEqual([shown.state, shown.busy, shown.said, shown.lesson.hidden], ["not-drawn", undefined,
                   "s5 not drawn (no worker): the lesson's data", false]);
  assert.equal(p.local["course-work:/course/:en:seed"], undefined);   // not kept: the page is on the lesson's data
});

test("a seed it refuses leaves the variant in use on the page, and the line says why", async () => {
  const grader = later();
  const p = page({ replies: grader.replies });
  const first = p.useSeed("s1");
  await grader.answer();
  await first;
  await grader.answer();
  const refused = p.useSeed("bad");
  assert.equal(placeOf(p, "ex-a").state, "drawing");
  await grader.answer({ code: 2, result: null, error: "not a seed" });
  await grader.answer();   // the variant in use, again
  await refused;
  assert.deepEqual([placeOf(p, "ex-a").state, placeOf(p, "ex-a").said], ["done", "variant s1 | x7"]);
  assert.equal(p.exercise("ex-a").querySelector(".course-checker__variant-status").textContent, "not a seed");
  assert.equal(p.local["course-work:/course/:en:seed"], '"s1"');
});

/* --- work kept in another locale: said to be there, with a link */

test("the other locales with work on these exercises come from the names kept, this site's only", () => {
  const SITE = "course-work:/course/:";
  const names = [`${SITE}fr:exercise:ex-a`, `${SITE}ja:exercise:ex-a`, `${SITE}en:exercise:ex-a`, `${SITE}ko:seed`,
                 `${SITE}ko:exercise:ex-c`, "course-work:/other/:id:exercise:ex-b", `${SITE}zh:exercise:ex-b:x`];
  assert.deepEqual(JSON.parse(JSON.stringify(workElsewhere(names, SITE, "en", ["ex-a", "ex-b"]))),
                   { "ex-a": ["fr", "ja"] });
});

test("a page says which languages keep work on its exercise, with a link to this page in each", async () => {
  const local = new Local();
  page({ local, lang: "fr" }).type("ex-a/p1", "0,5");
  page({ local, lang: "ja" }).type("ex-a/p2", "1");
  const en = page({ local });
  en.api.open();
  const place = en.exercise("ex-a").querySelector(".course-checker__elsewhere");
  assert.equal(place.hidden, false);
  const said = (line) => line.textContent + line.children.map((node) => node.shown ?? node).join("");
  assert.deepEqual(place.children.map(said), ["work in French kept there open in French",
                                                             "work in Japanese kept there"]);   // no link to ja here
  const link = place.children[0].children[1];
  assert.deepEqual([link.tagName, link.href, link.hreflang], ["a", "http://127.0.0.1/course/fr/page/", "fr"]);
  assert.equal(en.exercise("ex-b").querySelector(".course-checker__elsewhere").hidden, true);
  en.type("ex-a/p1", "0.5");   // work here too: the others' is still theirs
  await en.api.clear(en.panel, null);   // all cleared, every locale's
  assert.equal(place.hidden, true);
});
