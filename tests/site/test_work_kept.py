"""The student's work on the page (hooks/checker/workspace.py, checker.js), in Debian's Chromium on the built site.

What a student types, the seed and each part's last verdict are kept in the browser and come back after a
reload and a walk to another lesson; without storage (turned off, full) the page still checks and says once
that nothing is kept; a damaged or foreign value in storage is never shown as an answer; clearing can be
undone. "Download my answers" gives the file `grader submit` grades, in a subprocess, with the scores the page
showed, part by part: one exercise, the whole course from the home page, a variant. "Load answers" puts a file
back, or says why not in the grader's words. The home page of every locale shows each exercise's state.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import tomllib

from grader import bank, web
from tests.conftest import wait_ms, wait_seconds
from tests.site import started
from tests.site import test_browser as tb
from tests.site.browsing import tab_to
from tests.site.test_checker import (  # noqa: F401 - fixtures
    CHECKING,
    GRADER,
    SETTLED,
    base_url,
    browser,
    first_start,
    lesson_paths,
    needs_browser,
    needs_runtime,
)

pytestmark = [needs_browser, needs_runtime]
TABLES = {locale: tomllib.loads((tb.DOCS / locale / "labels.toml").read_text("utf-8")) for locale in tb.LOCALES}
LABELS = {locale: table["checker"] for locale, table in TABLES.items()}

# answers a student might give, right and wrong, that the grader judges without SymPy: exercise -> part -> answer
ANSWERS = {
    "embedding-distances": {"parakeet-monkey": "0.3", "parakeet-fourier": "3.5", "cos-parakeet-fourier": "0"},
    "attention-weights": {"scores": "(1, 1, 0)", "scaled": "(1/4, 1/4, 0)", "weights": "(0.3837, 0.3837, 0.2327)"},
    "terrain-warmup": {"lr-at-step": "0.0000075", "step-at-fraction": "801", "first-step-ratio": "200"},
    "reachable-vertices": {"vertices": "{(1, 0, 0), (1/2, 1/2, 0)}"},
    "submanifold-dims": {"full-dim": "15", "warmup-dim": "7", "polish-dim": "13"},
}


@pytest.fixture()
def reader(browser, base_url, first_start):
    """A new tab in a new context: storage starts empty but for the grader's snapshot (as a reader's second page
    has it: the grader starts from it, tests/site/started.py)."""
    reader = started.started_tab(browser, base_url, first_start)
    yield reader
    reader.context.close()


# the page's work script has done what it was asked (checker.js marks <html> while calls to work.js wait)
SETTLED_WORK = "() => document.documentElement.dataset.courseWork !== 'busy'"


def settle(page) -> None:
    page.wait_for_function(SETTLED_WORK, timeout=wait_ms(CHECKING))


def open_exercise(reader, base_url, site: Path, locale: str, exercise: str):
    reader.open(base_url + lesson_paths(site, locale)[exercise])
    settle(reader.page)
    return reader.page


def part(exercise: str, part_id: str) -> str:
    return f'.course-checker[data-exercise="{exercise}"][data-part="{part_id}"]'


def check(page, exercise: str, part_id: str, answer: str) -> None:
    root = part(exercise, part_id)
    page.fill(f"{root} .course-checker__answer", answer)
    page.click(f"{root} .course-checker__check")
    page.wait_for_function(SETTLED, arg=[f"{root} .course-checker__verdict"], timeout=wait_ms(CHECKING))
    settle(page)


def typed(page, exercise: str, part_id: str, answer: str) -> None:
    page.fill(f"{part(exercise, part_id)} .course-checker__answer", answer)
    settle(page)


def shown(page, exercise: str) -> dict:
    """What the page shows of each part: its answer, its verdict (score, note, words), and the scores line."""
    settle(page)
    parts = page.locator(f'.course-checker[data-exercise="{exercise}"]')
    seen = {}
    for i in range(parts.count()):
        box = parts.nth(i)
        verdict = box.locator(".course-checker__verdict")
        seen[box.get_attribute("data-part")] = (box.locator(".course-checker__answer").input_value(),
                                                verdict.get_attribute("data-score"), verdict.get_attribute("data-note"),
                                                verdict.inner_text())
    seen["scores"] = page.locator(f'.course-checker-exercise[data-exercise="{exercise}"] .course-checker__scores').inner_text()
    return seen


def scores_shown(page, exercise: str) -> dict[str, float]:
    boxes = page.locator(f'.course-checker[data-exercise="{exercise}"] .course-checker__verdict[data-score]')
    return {box.evaluate("v => v.closest('.course-checker').dataset.part"): float(box.get_attribute("data-score"))
            for box in boxes.all()}


def download(page, where: str = "") -> str:
    settle(page)
    with page.expect_download() as downloading:
        page.click(f"{where} .course-checker__download".strip())
    assert downloading.value.suggested_filename == "answers.toml"
    return Path(downloading.value.path()).read_text("utf-8")


def submitted(tmp_path: Path, text: str, *options: str) -> dict[str, dict[str, float]]:
    """`grader submit answers.toml` on the downloaded file, in a subprocess: exercise -> part -> score, answered parts."""
    (tmp_path / "answers.toml").write_text(text, encoding="utf-8")
    ran = subprocess.run([GRADER, "submit", "answers.toml", *options, "--format", "json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=wait_seconds(150))
    assert ran.returncode in (0, 1), ran.stderr
    return {e["id"]: {p["id"]: p["score"] for p in e["parts"] if p["answer"] is not None}
            for e in json.loads(ran.stdout)["exercises"] if any(p["answer"] is not None for p in e["parts"])}


def page_command(page, exercise: str, kind: str) -> list[str]:
    """The command under the exercise, as the page shows it (kind: 'check' or 'submit')."""
    where = "pre.course-command[data-part]" if kind == "check" else "pre.course-command[data-submit]"
    return page.locator(f"#exercise-{exercise} {where} > code").text_content().split()


# --- kept: a reload, a walk to another lesson and back


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_answers_and_verdicts_come_back_after_a_reload_and_a_walk_to_lesson_4(reader, base_url, built_site, locale):
    page = open_exercise(reader, base_url, built_site, locale, "attention-weights")
    check(page, "attention-weights", "scores", "(1, 1, 0)")
    check(page, "attention-weights", "scaled", "(1, 1, 0)")   # a named mistake
    typed(page, "attention-weights", "weights", "(0.4, 0.4, 0.2)")   # typed, not checked
    before = shown(page, "attention-weights")
    total = f'{sum(scores_shown(page, "attention-weights").values()):g}'
    assert before["scores"] == LABELS[locale]["scores"].format(last=total, best=total, max=9)
    assert before["weights"][1] is None and before["scaled"][2] == "scores-as-scaled"
    page.reload(wait_until="load")
    settle(page)
    assert shown(page, "attention-weights") == before, "a reload lost the work"
    # to lesson 4 as a reader goes (the site's navigation), an answer there, and back
    page.locator(f'nav.md-nav a[href$="{lesson_paths(built_site, locale)["reachable-vertices"].rsplit("/", 2)[-2]}/"]').first.click()
    page.wait_for_selector(part("reachable-vertices", "vertices"))
    settle(page)
    check(page, "reachable-vertices", "vertices", "{(1, 0, 0)}")
    lesson4 = shown(page, "reachable-vertices")
    page.locator(f'nav.md-nav a[href$="{lesson_paths(built_site, locale)["attention-weights"].rsplit("/", 2)[-2]}/"]').first.click()
    page.wait_for_selector(part("attention-weights", "scores"))
    settle(page)
    assert shown(page, "attention-weights") == before, "the work was lost on the way to lesson 4 and back"
    reader.open(base_url + lesson_paths(built_site, locale)["reachable-vertices"])
    assert shown(reader.page, "reachable-vertices") == lesson4
    reader.assert_clean(f"{locale}: kept")


def test_an_answer_changed_after_its_check_drops_its_verdict_and_keeps_the_best_score(reader, base_url, built_site):
    page = open_exercise(reader, base_url, built_site, "en", "terrain-warmup")
    check(page, "terrain-warmup", "step-at-fraction", "800")
    check(page, "terrain-warmup", "first-step-ratio", "200")
    scores = page.locator('.course-checker-exercise[data-exercise="terrain-warmup"] .course-checker__scores')
    assert scores.inner_text() == LABELS["en"]["scores"].format(last=2, best=2, max=3)
    check(page, "terrain-warmup", "first-step-ratio", "1/200")
    assert scores.inner_text() == LABELS["en"]["scores"].format(last=1, best=2, max=3)
    typed(page, "terrain-warmup", "step-at-fraction", "8000")
    assert page.locator(f'{part("terrain-warmup", "step-at-fraction")} .course-checker__verdict').inner_text() == ""
    assert scores.inner_text() == LABELS["en"]["scores"].format(last=0, best=2, max=3)
    page.reload(wait_until="load")
    settle(page)
    assert scores.inner_text() == LABELS["en"]["scores"].format(last=0, best=2, max=3)
    assert page.locator(f'{part("terrain-warmup", "step-at-fraction")} .course-checker__answer').input_value() == "8000"
    reader.assert_clean("best and last")


# --- no storage: turned off, full


def no_storage_context(browser, folder: Path):
    """Chromium with every site's data blocked (the setting "Block all cookies", which blocks storage too): the page
    cannot open localStorage at all."""
    profile = folder / "profile"
    (profile / "Default").mkdir(parents=True)
    (profile / "Default" / "Preferences").write_text(json.dumps(
        {"profile": {"default_content_setting_values": {"cookies": 2}}}), encoding="utf-8")
    return browser.browser_type.launch_persistent_context(
        str(profile), executable_path=tb.CHROMIUM, args=tb.chromium_args(), headless=True,
        viewport={"width": 1280, "height": 900}, accept_downloads=True)


def assert_says_once_and_still_works(reader, page, locale: str, tmp_path: Path, theme_errors: list | None = None) -> None:
    kept = page.locator(".course-checker__kept")
    page.wait_for_function("() => document.querySelector('.course-checker__kept').dataset.state === 'lost'",
                           timeout=wait_ms(CHECKING))
    assert kept.count() == 1 and kept.inner_text() == LABELS[locale]["not_kept"]
    assert page.get_by_text(LABELS[locale]["not_kept"]).count() == 1, "said more than once"
    check(page, "embedding-distances", "parakeet-monkey", "0.09")
    assert page.locator(f'{part("embedding-distances", "parakeet-monkey")} .course-checker__verdict').get_attribute(
        "data-note") == "squared-distance"
    assert page.get_by_text(LABELS[locale]["not_kept"]).count() == 1, "said again at the next answer"
    text = download(page)   # what this page holds can still be taken away
    assert submitted(tmp_path, text, "--lang", locale) == {"embedding-distances": {"parakeet-monkey": 0.0}}
    if theme_errors is not None:   # the theme's own scripts read storage without asking (its palette, its search)
        ours = [stack for stack in theme_errors if "/assets/checker/" in stack]
        assert theme_errors and not ours, ours
        reader.errors = [e for e in reader.errors if "'localStorage'" not in e]
    reader.assert_clean("no storage")


def test_storage_turned_off_the_page_checks_and_says_so_once(browser, base_url, built_site, tmp_path):
    context = no_storage_context(browser, tmp_path)   # a browser of its own: a profile that blocks site data
    try:
        reader = tb.Reader(context)
        stacks: list[str] = []
        reader.page.on("pageerror", lambda error: stacks.append(error.stack or ""))
        page = open_exercise(reader, base_url, built_site, "fr", "embedding-distances")
        assert page.evaluate("() => { try { return window.localStorage.length >= 0 && 'open'; } catch (e) { return e.name; } }"
                             ) == "SecurityError", "the profile does not block storage"
        assert_says_once_and_still_works(reader, page, "fr", tmp_path, stacks)
    finally:
        context.close()


FILL = """() => {   // as much as this origin may keep, in ever smaller pieces, until not one more character fits
  let piece = 'x'.repeat(1 << 20), n = 0;
  while (piece.length) {
    try { localStorage.setItem(`filler-${n++}`, piece); } catch (e) { piece = piece.slice(Math.ceil(piece.length / 2)); }
  }
  try { localStorage.setItem(`filler-${n}`, 'x'); return 'room left'; } catch (e) { return e.name; }
}"""


def test_storage_full_the_page_checks_and_says_so_once(reader, base_url, built_site, tmp_path):
    page = open_exercise(reader, base_url, built_site, "en", "embedding-distances")
    assert page.evaluate(FILL) == "QuotaExceededError"
    page.reload(wait_until="load")
    settle(page)
    typed(page, "embedding-distances", "parakeet-monkey", "0.25")   # the first write
    assert_says_once_and_still_works(reader, page, "en", tmp_path)


# --- what storage holds that this page did not write


DAMAGED = [
    "{not json",
    json.dumps({"v": 1, "variants": {"": {"answers": {"parakeet-monkey": 3}, "verdicts": {}, "best": None}}}),
    json.dumps({"v": 1, "variants": {"": {"answers": {"no-such-part": "0.3"}, "verdicts": {}, "best": None}}}),
    json.dumps({"v": 2, "variants": {"": {"answers": {"parakeet-monkey": "0.3"}, "verdicts": {}, "best": None}}}),
    json.dumps({"v": 1, "variants": {"": {"answers": {"parakeet-monkey": "0.3"},
                                          "verdicts": {"parakeet-monkey": {"score": "1"}}, "best": None}}}),
    json.dumps(["0.3"]),
]


@pytest.mark.parametrize("value", DAMAGED, ids=["not-json", "a-number", "a-foreign-part", "another-version",
                                                 "a-damaged-verdict", "a-list"])
def test_a_damaged_or_foreign_value_in_storage_is_never_shown_as_an_answer(reader, base_url, built_site, value):
    page = open_exercise(reader, base_url, built_site, "en", "embedding-distances")
    ours = "() => Object.keys(localStorage).filter(key => key.startsWith('course-work:'))"   # not the theme's palette
    assert page.evaluate(ours) == []
    # the key the page writes, found by typing once
    typed(page, "embedding-distances", "parakeet-monkey", "0.25")
    (key,) = page.evaluate(ours)
    assert re.fullmatch(r"course-work:/:en:exercise:embedding-distances", key), key
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, value])
    page.reload(wait_until="load")
    settle(page)
    answers = page.locator(".course-checker__answer").evaluate_all("boxes => boxes.map(b => b.value)")
    assert answers == [""] * len(answers), answers
    assert not page.locator(".course-checker__verdict[data-state]").count()
    reader.assert_clean("damaged storage")


def test_clearing_an_exercise_or_everything_can_be_undone(reader, base_url, built_site):
    reader.open(base_url + lesson_paths(built_site, "en")["terrain-warmup"])
    page = reader.page
    check(page, "terrain-warmup", "step-at-fraction", "800")
    before = shown(page, "terrain-warmup")
    message = page.locator(".course-checker__message")
    page.click(".course-checker__clear")
    settle(page)
    assert message.inner_text().startswith(LABELS["en"]["cleared"])
    assert page.locator(".course-checker__answer").evaluate_all("bs => bs.every(b => !b.value)")
    page.reload(wait_until="load")
    settle(page)
    assert page.locator(".course-checker__answer").evaluate_all("bs => bs.every(b => !b.value)"), "cleared only on screen"
    check(page, "terrain-warmup", "step-at-fraction", "800")
    page.click(".course-checker__clear-all")
    settle(page)
    assert message.inner_text().startswith(LABELS["en"]["cleared_all"])
    message.get_by_role("button", name=LABELS["en"]["undo"]).click()
    assert shown(page, "terrain-warmup") == before
    page.reload(wait_until="load")
    settle(page)
    assert shown(page, "terrain-warmup") == before
    reader.assert_clean("clear")


# --- handing in: the downloaded file, graded by the command line


def test_one_exercise_downloaded_is_graded_by_grader_submit_as_the_page_graded_it(reader, base_url, built_site, tmp_path):
    page = open_exercise(reader, base_url, built_site, "en", "embedding-distances")
    for part_id, answer in ANSWERS["embedding-distances"].items():
        check(page, "embedding-distances", part_id, answer)
    text = download(page)
    assert tomllib.loads(text) == {"lang": "en", "embedding-distances": ANSWERS["embedding-distances"]}
    graded = submitted(tmp_path, text, *page_command(page, "embedding-distances", "submit")[3:])
    assert graded == {"embedding-distances": scores_shown(page, "embedding-distances")}
    reader.assert_clean("one exercise")


def test_the_whole_course_downloaded_from_the_home_page_is_graded_as_the_pages_graded_it(reader, base_url, built_site,
                                                                                         tmp_path):
    locale, seen = "fr", {}
    for exercise, answers in ANSWERS.items():
        page = open_exercise(reader, base_url, built_site, locale, exercise)
        for part_id, answer in answers.items():
            check(page, exercise, part_id, answer)
        seen[exercise] = scores_shown(page, exercise)
    reader.open(base_url + tb.path_of(locale, "index"))
    settle(reader.page)
    text = download(reader.page, ".course-progress")
    assert tomllib.loads(text) == {"lang": locale, **ANSWERS}
    assert submitted(tmp_path, text, "--lang", locale) == seen
    reader.assert_clean("the whole course")


def test_a_variant_downloaded_carries_its_seed_and_is_graded_on_it(reader, base_url, built_site, tmp_path):
    seed, exercise = "s0042", "reachable-vertices"
    page = open_exercise(reader, base_url, built_site, "ko", exercise)
    page.fill(".course-checker__seed", seed)
    page.click(".course-checker__use-seed")
    page.wait_for_function(SETTLED, arg=[".course-checker__variant-status"], timeout=wait_ms(CHECKING))
    variant = bank.variant(exercise, seed).part("vertices").reference
    right = "{" + ", ".join("(" + ", ".join(map(str, point)) + ")" for point in variant) + "}"
    check(page, exercise, "vertices", right)
    assert page.locator(".course-checker__verdict").get_attribute("data-correct") == "true"
    command = page_command(page, exercise, "check")
    assert command[-4:] == ["--lang", "ko", "--seed", seed] and command[:4] == ["grader", "check", exercise, "vertices"]
    text = download(page)
    assert tomllib.loads(text) == {"lang": "ko", "seed": seed, exercise: {"vertices": right}}
    options = page_command(page, exercise, "submit")[3:]
    assert options == ["--lang", "ko", "--seed", seed]
    assert submitted(tmp_path, text, *options) == {exercise: scores_shown(page, exercise)} == {exercise: {"vertices": 4.0}}
    # the seed is the course's: the next lesson opens on the same variant, and the lesson's answers wait for it
    reader.open(base_url + lesson_paths(built_site, "ko")["submanifold-dims"])
    reader.page.wait_for_function(SETTLED, arg=[".course-checker__variant-status"], timeout=wait_ms(CHECKING))
    assert reader.page.locator(".course-checker__seed").input_value() == seed
    reader.assert_clean("a variant")


def score_text(score: float, locale: str) -> str:
    """A score as the page writes it (checker.js's number(): at most three decimals, the locale's decimal mark)."""
    from grader.languages.numerals import number_format

    return f"{round(score, 3):.3f}".rstrip("0").rstrip(".").replace(".", number_format(locale)[0])


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_a_right_answer_changed_to_a_wrong_one_shows_on_the_home_page_whose_total_is_the_files(
        reader, base_url, built_site, tmp_path, locale):
    """The home page's last scores and their total are what grader submit gives the file downloaded there; a right
    answer changed to a wrong one lowers them, while the best scores stay (issue #30: 'best 9/9' when the file
    scores less)."""
    words, exercises = LABELS[locale], dict(bank.EXERCISES)
    most = sum(e.max_score for e in exercises.values())
    right = {"lr-at-step": "3/400000", "step-at-fraction": "800", "first-step-ratio": "200"}

    def home():
        reader.open(base_url + tb.path_of(locale, "index"))
        settle(reader.page)
        progress = reader.page.locator(".course-progress")
        rows = progress.locator("tbody tr")
        cells = dict(zip(rows.evaluate_all("rs => rs.map(r => r.dataset.exercise)"),
                         zip(rows.locator(".course-progress__last").all_inner_texts(),
                             rows.locator(".course-progress__best").all_inner_texts())))
        graded = submitted(tmp_path, download(reader.page, ".course-progress"), "--lang", locale)
        return cells, progress.locator(".course-progress__summary").inner_text(), graded

    page = open_exercise(reader, base_url, built_site, locale, "terrain-warmup")
    for part_id, answer in right.items():
        check(page, "terrain-warmup", part_id, answer)
    page = open_exercise(reader, base_url, built_site, locale, "embedding-distances")
    for part_id, answer in ANSWERS["embedding-distances"].items():
        check(page, "embedding-distances", part_id, answer)
    cells, summary, graded = home()
    got = {e: sum(parts.values()) for e, parts in graded.items()}
    assert got["terrain-warmup"] == 3
    assert cells == {e: (f"{score_text(got[e], locale)}/{x.max_score}",) * 2 if e in got else ("–", "–")
                     for e, x in exercises.items()}
    best = sum(got.values())
    assert summary == words["progress_summary"].format(done=1 + (got["embedding-distances"] == 3), total=len(exercises),
                                                       last=score_text(best, locale), best=score_text(best, locale),
                                                       max=most)

    page = open_exercise(reader, base_url, built_site, locale, "terrain-warmup")
    check(page, "terrain-warmup", "first-step-ratio", "1/200")   # right no more
    cells, summary, graded = home()
    last = sum(sum(parts.values()) for parts in graded.values())
    assert graded["terrain-warmup"]["first-step-ratio"] == 0 and last == best - 1
    assert cells["terrain-warmup"] == ("2/3", "3/3")
    assert summary == words["progress_summary"].format(done=int(got["embedding-distances"] == 3), total=len(exercises),
                                                       last=score_text(last, locale), best=score_text(best, locale),
                                                       max=most)
    reader.assert_clean(f"{locale}: last and best on the home page")


# --- loading a file back


def test_loading_a_file_puts_its_answers_back_and_a_damaged_one_is_refused_in_the_graders_words(
        reader, base_url, built_site, tmp_path):
    page = open_exercise(reader, base_url, built_site, "fr", "terrain-warmup")
    message = page.locator(".course-checker__message")
    damaged = tmp_path / "answers.toml"
    damaged.write_text('[terrain-warmup\nlr-at-step = "1"\n', encoding="utf-8")
    page.set_input_files(".course-checker__file", str(damaged))   # the line says how the checker is, then the refusal
    message.filter(has_text=LABELS["fr"]["load_failed"].split("{error}")[0]).wait_for(timeout=wait_ms(CHECKING))
    refused = subprocess.run([GRADER, "submit", "answers.toml", "--lang", "fr"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=wait_seconds(30))
    assert refused.returncode == 2
    assert message.inner_text() == LABELS["fr"]["load_failed"].format(error=refused.stderr.strip())
    assert page.locator(".course-checker__answer").evaluate_all("bs => bs.every(b => !b.value)")

    other = tmp_path / "ja.toml"   # answers written on the Japanese pages are read as Japanese reads them
    other.write_text('lang = "ja"\n\n[terrain-warmup]\nlr-at-step = "0.0000075"\n', encoding="utf-8")
    page.set_input_files(".course-checker__file", str(other))
    message.filter(has_text="ja.toml").wait_for(timeout=wait_ms(CHECKING))
    assert message.inner_text() == LABELS["fr"]["load_lang"].format(file="ja.toml", lang="japonais")   # by its name
    assert TABLES["fr"]["languages"]["ja"] == "japonais"
    assert page.locator(".course-checker__answer").evaluate_all("bs => bs.every(b => !b.value)")

    good = tmp_path / "mine.toml"
    good.write_text('seed = "alice"\n\n[terrain-warmup]\nlr-at-step = "0,0000075"\n\n[submanifold-dims]\nfull-dim = "15"\n',
                    encoding="utf-8")
    page.set_input_files(".course-checker__file", str(good))
    message.filter(has_text="mine.toml").wait_for(timeout=wait_ms(CHECKING))
    assert message.inner_text().startswith(LABELS["fr"]["loaded"].format(file="mine.toml", count=2))
    page.wait_for_function(SETTLED, arg=[".course-checker__variant-status"], timeout=wait_ms(CHECKING))
    assert page.locator(".course-checker__seed").input_value() == "alice"
    assert page.locator(f'{part("terrain-warmup", "lr-at-step")} .course-checker__answer').input_value() == "0,0000075"
    reader.open(base_url + lesson_paths(built_site, "fr")["submanifold-dims"])
    settle(reader.page)
    assert reader.page.locator(f'{part("submanifold-dims", "full-dim")} .course-checker__answer').input_value() == "15"
    reader.assert_clean("load")


def test_loading_over_typed_answers_can_be_undone_and_what_it_loaded_is_not_checked_yet(
        reader, base_url, built_site, tmp_path):
    page = open_exercise(reader, base_url, built_site, "en", "terrain-warmup")
    check(page, "terrain-warmup", "step-at-fraction", "800")
    check(page, "terrain-warmup", "first-step-ratio", "200")
    typed(page, "terrain-warmup", "lr-at-step", "0.1")
    before = shown(page, "terrain-warmup")
    badge = lambda part_id: page.locator(f'{part("terrain-warmup", part_id)} .course-checker__badge')  # noqa: E731
    assert [badge(p).get_attribute("data-state") for p in ("step-at-fraction", "first-step-ratio", "lr-at-step")] \
        == ["right", "right", "unchecked"]
    mine = tmp_path / "mine.toml"   # one answer the same as checked, one changed, one not there
    mine.write_text('[terrain-warmup]\nfirst-step-ratio = "200"\nstep-at-fraction = "801"\n', encoding="utf-8")
    message = page.locator(".course-checker__message")
    page.set_input_files(".course-checker__file", str(mine))
    message.filter(has_text="mine.toml").wait_for(timeout=wait_ms(CHECKING))
    settle(page)
    loaded = shown(page, "terrain-warmup")
    assert [loaded[p][0] for p in ("step-at-fraction", "first-step-ratio", "lr-at-step")] == ["801", "200", ""]
    assert [badge(p).get_attribute("data-state") for p in ("step-at-fraction", "first-step-ratio")] == ["unchecked", "right"]
    assert badge("step-at-fraction").inner_text().strip().endswith(LABELS["en"]["verdict_unchecked"])
    assert badge("lr-at-step").is_hidden()
    assert loaded["scores"] == LABELS["en"]["scores"].format(last=1, best=2, max=3)   # what grader submit gives now
    message.get_by_role("button", name=LABELS["en"]["undo"]).click()
    assert shown(page, "terrain-warmup") == before
    assert badge("lr-at-step").get_attribute("data-state") == "unchecked"
    page.reload(wait_until="load")
    settle(page)
    assert shown(page, "terrain-warmup") == before, "undone only on screen"
    reader.assert_clean("load undone")


# --- the home page, in every locale


@pytest.mark.parametrize("locale", tb.LOCALES)
def test_the_home_page_shows_each_exercises_state_and_leads_to_it_by_keyboard(reader, base_url, built_site, locale):
    page = open_exercise(reader, base_url, built_site, locale, "embedding-distances")
    typed(page, "embedding-distances", "parakeet-monkey", "0.3")   # typed only
    page = open_exercise(reader, base_url, built_site, locale, "terrain-warmup")
    for part_id, answer in (("lr-at-step", "3/400000"), ("step-at-fraction", "800"), ("first-step-ratio", "200")):
        check(page, "terrain-warmup", part_id, answer)
    reader.open(base_url + tb.path_of(locale, "index"))
    page = reader.page
    settle(page)
    progress = page.locator(".course-progress")
    assert progress.is_visible()
    rows = progress.locator("tbody tr")
    states = dict(zip(rows.evaluate_all("rs => rs.map(r => r.dataset.exercise)"),
                      rows.locator(".course-progress__state").all_inner_texts()))
    words = LABELS[locale]
    assert states == {e: words["state_done"] if e == "terrain-warmup" else words["state_started"]
                      if e == "embedding-distances" else words["state_new"] for e in bank.EXERCISES}
    most = sum(e.max_score for e in bank.EXERCISES.values())
    assert progress.locator(".course-progress__summary").inner_text() == " ".join((words["progress_summary"].format(
        done=1, total=len(bank.EXERCISES), last=3, best=3, max=most), words["progress_unchecked"].format(count=1)))
    # from the top of the page, Tab to the first exercise's link, then Enter
    assert tab_to(page, progress.locator("tbody a").first), "the progress cannot be reached with Tab"
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{lesson_paths(built_site, locale)['embedding-distances']}#exercise-embedding-distances")
    page.wait_for_selector(part("embedding-distances", "parakeet-monkey"), state="attached")   # swapped in: the address first
    settle(page)
    assert page.locator(f'{part("embedding-distances", "parakeet-monkey")} .course-checker__answer').input_value() == "0.3"
    other = next(o for o in tb.LOCALES if o != locale)   # another language's pages keep their own work
    reader.open(base_url + tb.path_of(other, "index"))
    settle(reader.page)
    assert set(reader.page.locator(".course-progress tbody tr").evaluate_all("rs => rs.map(r => r.dataset.state)")) == {"new"}
    reader.assert_clean(f"{locale}: progress")


# --- the answer as the grader reads it, before Check


READINGS = [   # (locale, exercise, part, answer, what the grader makes of it)
    ("fr", "embedding-distances", "parakeet-monkey", "0,3", "read"),             # a plain number, a decimal comma
    ("en", "attention-weights", "weights", "(exp(1/2)/(1+2*exp(1/2)), exp(1/2)/(1+2*exp(1/2)), 1/(1+2*exp(1/2)))",
     "read"),                                                                    # an exact form
    ("fr", "attention-weights", "weights", "(0,5,0,5,0)", "refused"),            # commas that read two ways
    ("en", "embedding-distances", "parakeet-monkey", "e^-1/2", "refused"),       # an ambiguous notation
]


@pytest.mark.parametrize("locale, exercise, part_id, answer, state", READINGS, ids=["number", "exact-form", "refused-commas",
                                                                                    "refused-ambiguous"])
def test_the_grader_s_reading_shows_after_a_pause_politely_and_before_check(reader, base_url, built_site, locale,
                                                                             exercise, part_id, answer, state):
    page = open_exercise(reader, base_url, built_site, locale, exercise)
    root = part(exercise, part_id)
    box, reading = page.locator(f"{root} .course-checker__answer"), page.locator(f"{root} .course-checker__reading")
    assert reading.get_attribute("aria-live") == "polite" and reading.get_attribute("id") in box.get_attribute(
        "aria-describedby").split()
    changes = "r => { window.readingChanges = 0; new MutationObserver(() => window.readingChanges++).observe(r, " \
              "{childList: true, subtree: true, characterData: true}); }"
    reading.evaluate(changes)
    box.focus()
    page.keyboard.type(answer, delay=30)   # a student typing: no reading while the keys come
    assert page.evaluate("window.readingChanges") == 0, "the reading changed at every keystroke"
    page.wait_for_function("([r, s]) => document.querySelector(r).dataset.state === s",
                           arg=[f"{root} .course-checker__reading", state], timeout=wait_ms(CHECKING))
    assert page.evaluate("document.activeElement.classList.contains('course-checker__answer')"), "focus was taken"
    expected = json.loads(web.read(exercise, part_id, answer, locale))
    if state == "refused":
        assert expected["code"] == 2
        assert reading.locator(".course-checker__caret").evaluate(
            "c => [...c.children].map(line => line.textContent).join('\\n')") == expected["text"]
    else:
        math = reading.locator("math")
        assert math.count() == 1 and math.evaluate("m => m.namespaceURI") == "http://www.w3.org/1998/Math/MathML"
        assert " ".join(math.text_content().split()) == " ".join(
            re.sub(r"<[^>]+>", "", expected["read_as_mathml"]).split())
    page.click(f"{root} .course-checker__check")   # the verdict reads it the same way
    page.wait_for_function(SETTLED, arg=[f"{root} .course-checker__verdict"], timeout=wait_ms(CHECKING))
    verdict = json.loads(web.check(exercise, part_id, answer, locale))
    read_as = (verdict["result"] or {}).get("read_as_mathml")
    if read_as:
        assert page.locator(f"{root} .course-checker__verdict math").text_content() == math.text_content()
    reader.assert_clean(f"{locale} reading")


def test_the_home_page_starts_the_checker_only_for_load_answers(reader, base_url, built_site, tmp_path):
    """The progress table in view is no reason to download the checker (4.7 MB): only Load answers needs it."""
    reader.open(base_url + tb.path_of("en", "index"))
    page = reader.page
    settle(page)
    page.locator(".course-progress").scroll_into_view_if_needed()
    page.wait_for_timeout(wait_ms(2))
    assert not [url for url in reader.requested if "/worker-" in url], reader.requested
    mine = tmp_path / "mine.toml"
    mine.write_text('[embedding-distances]\nparakeet-monkey = "0.3"\n', encoding="utf-8")
    page.set_input_files(".course-checker__file", str(mine))
    page.locator(".course-checker__message").filter(has_text="mine.toml").wait_for(timeout=wait_ms(CHECKING))
    assert [url for url in reader.requested if "/worker-" in url]
    reader.assert_clean("home page")
