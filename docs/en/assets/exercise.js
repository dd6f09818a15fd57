/* An exercise's hints, one at a time, and its worked solution, after an attempt at every part.
 *
 * - Hints: "Hint 2 of 2" is offered once "Hint 1 of 2" has been opened (until then it is hidden); a chapter's
 *   `open: true` shows them all, unfolded. Without this script every hint is there, folded.
 * - The worked solution (`extra.course.solution_gate: after-attempt`: the note under it says so): opening it (a click on its title)
 *   before every part has a verdict from the page's checker leaves it closed and says so, with how many parts have one
 *   (the note's `data-note`); a second click opens it. A nudge, not a lock: the solution is in the page. Where the
 *   page's checker is not running (its answer boxes stay hidden), the solution opens as any other.
 *
 * A part has been checked when its verdict carries the checker's `data-state` "done" (or "timeout").
 * The theme's instant navigation swaps pages without reloading this script: each page is attached when the
 * theme says it is in place (its `document$`).
 */
(() => {
  const CHECKED = new Set(["done", "timeout"]);

  function hints(exercise) {
    const all = [...exercise.querySelectorAll("details.course-hint[data-hint]")];
    if (all.some(hint => hint.open)) return;   // shown unfolded (`open: true`): all of them, at once
    all.slice(1).forEach(hint => { hint.hidden = true; });
    all.forEach((hint, index) => hint.addEventListener("toggle", () => {
      if (hint.open && all[index + 1]) all[index + 1].hidden = false;
    }));
  }

  function parts(exercise) {
    return [...exercise.querySelectorAll(".course-checker[data-part]")].filter(part => !part.hidden);
  }

  function gate(exercise) {
    const note = exercise.querySelector("details.course-solution + .course-solution__gate[data-gate='after-attempt']");
    if (!note) return;
    const solution = note.previousElementSibling;
    let nudged = false;
    // the reader's click (or Enter, Space) on its summary; a script that opens it is let be
    solution.querySelector("summary").addEventListener("click", event => {
      if (solution.open || nudged) return;
      const boxes = parts(exercise);
      const checked = boxes.filter(part => {
        const verdict = part.querySelector(".course-checker__verdict");
        return verdict && CHECKED.has(verdict.dataset.state);
      }).length;
      if (!boxes.length || checked === boxes.length) return;
      event.preventDefault();
      nudged = true;
      note.textContent = note.dataset.note.replace("{checked}", checked).replace("{total}", boxes.length);
      note.hidden = false;
    });
  }

  function attach() {
    document.querySelectorAll(".md-content .course-exercise").forEach(exercise => {
      if (exercise.dataset.courseAttached) return;
      exercise.dataset.courseAttached = "true";
      hints(exercise);
      gate(exercise);
    });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(attach);
  else attach();
})();
