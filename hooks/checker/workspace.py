"""The student's workspace on the page: the markup of the in-page checker (hooks/checker/publish.py decides whether a
build has one) and of the home page's progress. checker.js brings it to life.

- each exercise part gets an answer box, the reading the grader makes of it as the student types (the
  preview), a Check button and a live verdict (:func:`part_html`);
- each exercise gets one "Check all", its last and best scores, the seed box for a variant (and New variant, which
  draws a seed for the student), and the work
  kept in the browser: the note that it stays on this device, Download my answers, Load answers, clear, and
  above them all the note that work on it in another language is kept on that language's page (:func:`exercise_html`);
- the home page of each locale lists every exercise with its state, its last score (what grader submit gives the
  downloaded file) and its best, and the course's totals, read from the same storage (:func:`progress_html`).

Everything is hidden until checker.js shows it: a reader without script sees the command-line route only.
The words are the page's labels (labels.toml's [checker] table); the ones the script needs after the build
travel in ``data-words``, the languages' names (its [languages] table) in ``data-languages``.
"""

from __future__ import annotations

import html
import json
import re

from grader.languages.numerals import number_format

# the words checker.js and work.js need after the page is built: on every page with the checker (loading, the
# work kept), on an exercise's page (totals, the variant, scores, the reading), on the home page (the progress)
SCRIPT_LABELS = ("starting", "loading", "loading_sympy", "importing", "queued_starting", "queued_loading",
                 "queued_importing", "checking", "ready", "failed", "restarted",
                 "not_kept", "cleared_all", "undo", "nothing", "loaded", "load_failed", "load_lang")
VERDICT_LABELS = ("verdict_right", "verdict_partial", "verdict_wrong", "verdict_unreadable", "verdict_unchecked",
                  "verdict_said")
EXERCISE_LABELS = SCRIPT_LABELS + VERDICT_LABELS + ("total", "variant_data", "variant_prompt", "lesson_again", "cleared",
                                                    "scores", "drawing", "not_drawn", "elsewhere",
                                                    "elsewhere_link")
PROGRESS_LABELS = SCRIPT_LABELS + ("state_new", "state_started", "state_done", "progress_summary", "progress_unchecked")
# how the checker is (loader.js writes it), its download's bar and the room its longest words take, in one cell; spans,
# not a div: the search index's parser takes a nested element's end for the skipped checker's (hooks/site/search.py)
STATUS_HTML = ('<span class="course-checker__state"><span class="course-checker__status" role="status" aria-live="polite">'
               '</span></span>')
INSTALL_COMMAND = "python3 -m pip install ."   # in a copy of the course's repository (the page it links to)
INSTALL_PAGE = "grader.md"                     # the page that explains it, in every locale
INSTALL_HREF = "course-install-page"           # its link, until the hook knows the page's address


def page_url(files, name: str, page) -> str | None:
    """The address of the locale's page built from the chapter ``name`` ('grader.md'), relative to ``page``
    (mkdocs-static-i18n names each locale's file by the chapter it stands for: ``norm_src_uri``); None if the
    site has no such page."""
    from mkdocs.utils import get_relative_url

    for file in files.documentation_pages():
        if getattr(file, "norm_src_uri", file.src_uri) == name:
            return get_relative_url(file.url, page.url)
    return None


def with_install_link(html_text: str, files, page) -> str:
    """The page with its install lines linked to the install page (without the link, in a site that has none)."""
    if INSTALL_HREF not in html_text:
        return html_text
    href = page_url(files, INSTALL_PAGE, page)
    if href is None:
        return re.sub(rf' <a href="{INSTALL_HREF}">[^<]*</a>', "", html_text)
    return html_text.replace(f'"{INSTALL_HREF}"', f'"{_attr(href)}"')


def _id(*parts: str) -> str:
    return "-".join(("answer", *parts))


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def _json(value) -> str:
    """JSON for an attribute in single quotes: its double quotes as they are (the page is lighter)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return "'" + text.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;") + "'"


def language_names(labels: dict) -> dict[str, str]:
    """The name of each language a submission file can name (its ``lang``), in the page's language: labels.toml's
    [languages] table ({"fr": "French"} on an English page), for Load answers to name a file's language."""
    return {key.removeprefix("languages."): name for key, name in labels.items() if key.startswith("languages.")}


def _button(css: str, text: str, hidden: bool = False) -> str:
    return (f'<button type="button" class="course-checker__{css} md-button"{" hidden" if hidden else ""}>'
            f"{html.escape(text)}</button>")


def part_html(exercise_id: str, part_id: str, points: int, form: str, labels: dict) -> str:
    """An answer box (labelled, the form to type as its description), the reading of the answer as the
    grader reads it (polite: announced when the student pauses), a Check button, the box's state beside it (an
    icon and words: hidden from screen readers, which hear the verdict in words), the verdict."""
    box, verdict, hint, reading = (_id(exercise_id, part_id, *suffix) for suffix in ((), ("verdict",), ("form",),
                                                                                   ("reading",)))
    label = labels["checker.answer"].format(part=part_id)
    return (
        f'<div class="course-checker" data-exercise="{_attr(exercise_id)}" data-part="{_attr(part_id)}" '
        f'data-points="{points}" data-search-exclude hidden>'
        f'<label class="course-checker__label" for="{box}">{html.escape(label)}</label>'
        f'<span class="course-checker__hint" id="{hint}">{html.escape(form)}</span>'
        f'<span class="course-checker__row"><input class="course-checker__answer" id="{box}" type="text" '
        f'autocomplete="off" autocapitalize="off" autocorrect="off" spellcheck="false" '
        f'aria-describedby="{hint} {reading} {verdict}">'
        f'{_button("check", labels["checker.check"])}'
        f'<span class="course-checker__badge" aria-hidden="true" hidden></span></span>'
        f'<span class="course-checker__prompt" hidden></span>'
        f'<span class="course-checker__reading" id="{reading}" aria-live="polite"></span>'
        f'<span class="course-checker__verdict" id="{verdict}" role="status" aria-live="polite"></span>'
        "</div>"
    )


def exercise_html(exercise_id: str, lang: str, labels: dict, course: dict[str, list[str]],
                  figure: tuple[str, dict] | None = None) -> str:
    """One "Check all", the scores, the progress line, the seed box for a variant, and the work kept.

    ``course``: every exercise of the course and its parts ({id: [part ids]}), what a download may hold;
    ``figure``: (the id of the exercise's figure, the words it draws), for a variant's figure."""
    from grader import web
    from grader.languages.messages import message

    words = {key: labels[f"checker.{key}"] for key in EXERCISE_LABELS}
    # how an answer was read: the grader's own words (grader check prints them under a verdict)
    words["read_as"] = message("read-as", lang, expression="{expression}")
    seed = _id(exercise_id, "seed")
    label = lambda key: html.escape(labels[f"checker.{key}"])  # noqa: E731
    drawn = f' data-figure="{_attr(figure[0])}" data-figure-words={_json(figure[1])}' if figure else ""
    return (
        f'<div class="course-checker-exercise" data-exercise="{_attr(exercise_id)}" data-lang="{_attr(lang)}" '
        f'data-decimal="{_attr(number_format(lang)[0])}" '
        f"data-words={_json(words)} data-timeout={_json(web.timeout_verdict(lang))} "
        f"data-course={_json(course)} data-languages={_json(language_names(labels))}{drawn} data-search-exclude hidden>"
        f'<p class="course-checker__elsewhere" hidden></p>'
        f'<span class="course-checker__row">{_button("check-all", labels["checker.check_all"])}'
        f'<span class="course-checker__total" role="status" aria-live="polite"></span></span>'
        f'<p class="course-checker__scores" hidden></p>'
        + STATUS_HTML +
        f'<fieldset class="course-checker__variant"><legend>{label("variant")}</legend>'
        f'<p class="course-checker__help">{label("variant_help")}</p>'
        f'<label class="course-checker__label" for="{seed}">{label("seed")}</label>'
        f'<span class="course-checker__row"><input class="course-checker__seed" id="{seed}" type="text" '
        f'autocomplete="off" autocapitalize="off" spellcheck="false">'
        f'{_button("use-seed", labels["checker.use_seed"])}{_button("new-seed", labels["checker.new_variant"])}'
        f'{_button("lesson", labels["checker.lesson"], True)}</span>'
        f'<span class="course-checker__variant-status" role="status" aria-live="polite"></span>'
        "</fieldset>"
        + work_html(labels) +
        "</div>"
    )


def work_html(labels: dict, clear: bool = True) -> str:
    """The work kept in the browser: where it stays, download, load, clear (``clear``: this exercise too),
    and the line that says what happened (and offers to undo a clearing)."""
    return (
        f'<div class="course-checker__work"><p class="course-checker__kept" role="status">{html.escape(labels["checker.kept"])}</p>'
        f'<span class="course-checker__row">{_button("download", labels["checker.download"])}'
        f'{_button("load", labels["checker.load"])}'
        f'<input class="course-checker__file" type="file" accept=".toml,.json" tabindex="-1" hidden>'
        + (_button("clear", labels["checker.clear"]) if clear else "")
        + f'{_button("clear-all", labels["checker.clear_all"])}</span>'
        f'<p class="course-checker__message" role="status" aria-live="polite"></p></div>'
    )


def install_html(labels: dict, href: str) -> str:
    """The one line under each exercise on how to get the grader command, linking to the page that explains it."""
    text = html.escape(labels["checker.install"]).replace("{command}", f"<code>{html.escape(INSTALL_COMMAND)}</code>")
    return (f'<p class="course-exercise__install" data-search-exclude>{text} '
            f'<a href="{_attr(href)}">{html.escape(labels["checker.install_link"])}</a></p>')


def progress_html(lang: str, labels: dict, rows: list[dict], course: dict[str, list[str]]) -> str:
    """The home page's progress: every exercise of the course, its lesson, a link to it, its state, its last score
    (what grader submit gives the downloaded file) and its best, and the course's totals below the heading (filled
    by checker.js from the work kept in this browser); a table, so a screen reader reads it as one.

    ``rows``: {"id", "lesson", "title", "href", "max"} per exercise, in the course's order."""
    words = {key: labels[f"checker.{key}"] for key in PROGRESS_LABELS}
    label = lambda key: html.escape(labels[f"checker.{key}"])  # noqa: E731
    body = "".join(
        f'<tr data-exercise="{_attr(row["id"])}" data-max="{row["max"]}"><td>{row["lesson"]}</td>'
        f'<td><a href="{_attr(row["href"])}">{html.escape(row["title"])}</a> <code>{html.escape(row["id"])}</code></td>'
        f'<td class="course-progress__state">{label("state_new")}</td><td class="course-progress__last">–</td>'
        f'<td class="course-progress__best">–</td></tr>'
        for row in rows)
    return (
        f'<section class="course-progress" data-lang="{_attr(lang)}" data-decimal="{_attr(number_format(lang)[0])}" '
        f'data-words={_json(words)} data-languages={_json(language_names(labels))} '
        f'data-course={_json(course)} aria-labelledby="course-progress" data-search-exclude hidden>'
        f'<h2 id="course-progress">{label("progress")}</h2>'
        f'<p>{label("progress_help")}</p>'
        f'<p class="course-progress__summary"></p>'
        + STATUS_HTML +
        f'<table><thead><tr><th scope="col">{label("col_lesson")}</th>'
        f'<th scope="col">{label("col_exercise")}</th><th scope="col">{label("col_state")}</th>'
        f'<th scope="col">{label("col_last")}</th><th scope="col">{label("col_best")}</th></tr></thead><tbody>{body}</tbody></table>'
        + work_html(labels, clear=False) +
        "</section>"
    )
