/* The file "Download my answers" makes, for tests/hooks/test_work_js.py: given on standard input
   {"lang", "seed" (or null: the lesson's data), "course": {exercise: [parts]}, "answers": {exercise: {part: text}}},
   a page of every exercise of the course where the student typed those answers; prints the file's bytes in
   base64 (nothing when the page offers no file). */
import { readFileSync } from "node:fs";

import { openPage } from "./page.mjs";

const given = JSON.parse(readFileSync(0, "utf8"));
const page = openPage({ course: given.course, lang: given.lang, shown: Object.keys(given.course) });
if (given.seed !== null) await page.useSeed(given.seed);
Object.entries(given.answers).forEach(([id, parts]) => {
  Object.entries(parts).forEach(([part, text]) => page.type(`${id}/${part}`, text));
});
const file = await page.download();
process.stdout.write(file ? Buffer.from(file.bytes).toString("base64") : "");
