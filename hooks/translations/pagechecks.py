"""The checks of one chapter: a translated page against its English page, and what breaks any page.

Each check is a pure function of the English page's outline and the translated text that yields
(line, kind, message); `check_page` runs them all. `KINDS` names every kind of finding, with what it
means (the translators' guide explains each); `INFO_KINDS` are reported, never errors.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, lru_cache

from hooks.chapters import pages
from hooks.chapters import source as chapter
from hooks.chapters.blockspec import scan_blocks
from hooks.chapters.pages import SOURCE, recorded_hash, source_hash
from hooks.translations import typography

KINDS = {
    "file": "a page or a TOML file that cannot be read (not saved as UTF-8, or TOML that does not parse): nothing "
            "else of the locale is checked, and nothing built, until it is fixed",
    "missing": "an English page with no translation: readers see the English page, with a notice",
    "stale": "the English page changed since the translation was stamped: readers see a notice",
    "structure": "headings (levels) or blocks (types, ids, order) differ from English",
    "math": "a math segment differs from English: math is not translated",
    "numbers": "a number in the prose differs from English, or is written in another locale's format",
    "markers": "a leftover export or tool marker such as [BLOCK_TYPE ...]",
    "untranslated": "a heading, sentence or label left in English, or Latin-script prose in a ja, zh or ko page",
    "glossary": "a forbidden or missing rendering of a term, or an identifier that was translated",
    "punctuation": "'&' written for 'and'",
    "orphan": "a page with no English source, or a label English's labels.toml does not have",
    "block": "a malformed block",
    "link": "a link to no page",
    "bank-number": "exercise data written by hand instead of rendered from the grader's bank",
    "markup": "raw HTML the pages' allow-list does not hold (it could run script or load from elsewhere): the build removes it and fails",
    "catalog": "the grader's messages for the locale (grader/locale/<locale>/LC_MESSAGES/grader.po) lack one, "
               "or its placeholders or format differ from English",
    "catalog-stale": "a grader message whose English changed since it was translated, or marked fuzzy",
    "catalog-untranslated": "a grader message the locale has not translated (no entry, or an empty msgstr): the "
                            "grader and the site show it in English, as gettext does (a warning)",
    # across a locale's surfaces: its pages, labels.toml and grader.po (hooks.translations.surfaces, hooks.translations.review)
    "terminology": "a page paragraph, label or grader message whose English names a glossary term, without the "
                   "locale's rendering of it (`use`, or an `also` form): one term, one rendering on every surface",
    "title": "an exercise's title in the grader's catalog (exercise.<id>.title) differs from the heading that "
             "introduces the exercise on its page",
    "typography": "an apostrophe other than the one the locale writes everywhere else (’ in French); in French, a "
                  "high punctuation mark (: ; ! ?) or guillemets without their no-break space; in Japanese and Chinese, "
                  "ASCII punctuation next to CJK text where the full-width mark belongs (：（）) or a list joined with ', ' "
                  "(、), and a space between two CJK characters; in Korean, a bracket set apart from its word; in "
                  "Indonesian, a point's ' ; ' (the grader writes '; ')",
    "particle": "a Korean particle right after a placeholder ({name}은), or one that does not agree with the value the "
                "grader fills in: it cannot agree with every value",
    # as the reader sees it: the grader's messages with their values, the figures as drawn (hooks.translations.composed,
    # hooks.translations.rendered)
    "composed": "a grader message that reads badly once the grader fills in its values: an embedded message with a colon "
                "of its own, mid-sentence; a quote that cuts the student's number",
    "review": "the review record (docs/<locale>/review.toml) cannot be read, or names no such page",
    "review-stale": "a review of the labels or the catalog made against an older English text: review what "
                    "changed, then record it",
}
INFO_KINDS = frozenset({"missing", "stale", "catalog-stale", "catalog-untranslated", "review-stale"})
BREAKING_KINDS = frozenset({"file", "block", "link", "markup"})  # they break the page: errors on a draft too
RENDER_KINDS = frozenset({"markup"})  # the build reports these itself, once it has rendered them harmless

EXPORT_MARKER = re.compile(r"\[(?:BLOCK_TYPE|[A-Z]{2,}_[A-Z_]+)\b[^\]]*\]")
ENGLISH_STOPWORDS = frozenset(
    "the of and is are to with for each this that from into by as on its be it which when than their".split()
)
CJK = frozenset({"ja", "zh", "ko"})


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    kind: str
    message: str
    draft: bool = False   # found on a page marked `draft: true`: a warning, until the page is finished

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}{' (draft)' if self.draft else ''}: {self.message}"

    @property
    def error(self) -> bool:
        """Does it fail the strict build? Every kind but the informational ones, unless on a draft."""
        return not self.draft and self.kind not in INFO_KINDS


@dataclass(frozen=True)
class Glossary:
    """A locale's glossary.toml: its terms (`en`, `use`, `avoid`); English's also lists the identifiers
    every locale keeps verbatim; any may `allow` Latin-script words a ja, zh or ko page uses as they are."""

    terms: tuple = ()
    identifiers: tuple = ()
    allow: frozenset = field(default_factory=frozenset)

    @cached_property
    def allowed_words(self) -> frozenset[str]:
        """Latin-script words a page may keep: the glossary's `allow`, the identifiers' words, the renderings'."""
        phrases = [*self.allow, *self.identifiers, *(t.get("use", "") for t in self.terms)]
        return frozenset(w.lower() for phrase in phrases for w in pages.LATIN_WORD.findall(phrase))


# --- the checks of one translated page against its English page


@lru_cache(maxsize=64)
def english_outline(english: str):
    """What every locale is compared with, read once per English page."""
    plain = pages.prose_lines(english, keep_math=False)
    return {
        "structure": pages.structure(english, "en"),
        "numbers": pages.numbers(plain, SOURCE),
        "math": pages.math_segments(english),
        "identifiers": pages.code_spans(english),
        "sentences": {phrase for _, phrase in pages.sentences(plain)},
        "headings": {title.strip().lower() for _, _, title in pages.headings(english)},
        "text": english.lower(),
        "read": "\n".join(line for _, line in plain).lower(),     # what a reader reads: no code, no math
        "prose": pages.prose_lines(english),
        "source": english,
    }


def check_page(english: str, translated: str, locale: str, path: str, glossary: Glossary,
               reviewed: str | None = None) -> list[Finding]:
    """Every finding of one translated page against its English page. A page translated up to a point (its
    headings and blocks the start of English's) gets one finding per section still missing, and nothing about
    what those sections hold. The page is stale when English changed since the version it translates: its
    `translation_of`, else the one its last review (`reviewed`, the record's hash) was made against."""
    outline = english_outline(english)
    skeleton = pages.structure(translated, path)
    aligned = pages.aligner(english, translated, outline["structure"], skeleton)
    cut = partial_from(outline["structure"], skeleton)
    here = aligned if cut is None else (lambda line: None if line >= cut else aligned(line))
    findings = [Finding(path, line, kind, message) for check in PAGE_CHECKS
                for line, kind, message in check(outline, translated, locale, glossary, skeleton, here)
                if line is not None]
    if cut is not None:
        findings += missing_sections(english, outline["structure"][len(skeleton):], path, len(translated.splitlines()))
    recorded = recorded_hash(translated) or reviewed
    if recorded is not None and recorded != source_hash(english):
        since = "this translation" if recorded_hash(translated) else "its last review (docs/<locale>/review.toml)"
        findings.insert(0, Finding(path, 1, "stale", f"the English page changed since {since}: "
                                   f"update it, then record your review: --stamp {path} --reviewer NAME"))
    return findings


def partial_from(english: list, skeleton: list) -> int | None:
    """The English line from which a page is not translated yet, when its headings and blocks are the start of
    English's (a translation in progress); None for a page with all of them, or other ones."""
    if not 0 < len(skeleton) < len(english) or any(a != b for (_, a), (_, b) in zip(english, skeleton)):
        return None
    return english[len(skeleton)][0]


def missing_sections(english: str, missing: list, path: str, last_line: int) -> list[Finding]:
    """One finding per English section a partial page does not have yet (its heading named), at the page's end."""
    titles = {line: f"{'#' * level} {title.strip()}" for line, level, title in pages.headings(english)}
    # the first missing heading or block (when a block, the page stops inside a section: the rest of it is
    # missing too), then each missing section
    starts = [missing[0][0], *(line for line, _ in missing if line in titles)]
    found = []
    for line in dict.fromkeys(starts):
        what = f"section '{titles[line]}'" if line in titles else f"the rest of the section (from its '{dict(missing)[line]}')"
        found.append(Finding(path, last_line, "structure", (
            f"{what} (English line {line}) is not translated yet: translate it after this line, or mark the page "
            "`draft: true` in its front matter while you work")))
    return found


def check_structure(outline, translated, locale, glossary, skeleton, here):
    english = outline["structure"]
    for (_, want), (line, got) in zip(english, skeleton):
        if want != got:
            yield line, "structure", f"found '{got}' where English has '{want}': keep English's headings and blocks, in order"
            return
    if partial_from(english, skeleton) is not None:
        return                                # missing_sections says what is missing, section by section
    if len(english) != len(skeleton):
        line = skeleton[len(english)][0] if skeleton else 1     # more than English's (fewer is a partial page)
        yield line, "structure", f"{len(skeleton)} headings and blocks where English has {len(english)}"


def check_math(outline, translated, locale, glossary, skeleton, here):
    """Math is not translated: every segment of the page is one of English's, and every one of English's
    is on the page (numbers in math are compared as values, so each locale keeps its own format)."""
    english = {canonical_math(tex, SOURCE) for _, tex, _ in outline["math"]}
    found = set()
    for line, tex, _ in pages.math_segments(translated):
        key = canonical_math(tex, locale)
        found.add(key)
        if key not in english:
            yield line, "math", f"${tex.strip()}$ is not in the English page: copy the math from English"
    for line, tex, _ in outline["math"]:
        if canonical_math(tex, SOURCE) not in found:
            found.add(canonical_math(tex, SOURCE))
            yield here(line), "math", f"English has ${tex.strip()}$ in this section (line {line}); it is missing here"


def canonical_math(tex: str, locale: str) -> str:
    """TeX with its numbers written the same way in every locale: no thousands separators, a decimal point."""
    decimal, thousands = pages.FORMATS.get(locale, pages.FORMATS[SOURCE])
    separators = {",": r"\{,\}|,", ".": r"\{\.\}|\.", "\u202f": r"\\,|\{\\,\}|~|\u202f|\u00a0"}[thousands]
    tex = re.sub(rf"\d{{1,3}}(?:(?:{separators})\d{{3}})+(?!\d)",
                 lambda m: re.sub(r"\D", "", m.group(0)), tex)
    if decimal == ",":
        tex = re.sub(r"(\d)\{,\}(\d)", r"\1.\2", tex)
    return re.sub(r"\s+", "", tex)


def check_numbers(outline, translated, locale, glossary, skeleton, here):
    lines = pages.prose_lines(translated, keep_math=False)
    english = Counter(v for _, v in outline["numbers"])
    wanted = set(english)
    for line, value in pages.numbers(lines, locale):
        if value not in wanted:
            yield line, "numbers", f"{value} does not appear in the English page: check the figure and its format"
        english[value] -= 1
    for line, value in outline["numbers"]:
        if english[value] > 0 and value in wanted:
            wanted.discard(value)
            yield here(line), "numbers", f"English has {value} in this section (line {line}); it is missing here"
    for line, number in decimal_point_numbers(lines, locale):
        yield line, "numbers", decimal_point_fix(number, locale)
    for line, text in lines:
        for problem in grouped_four_digits(text, locale)[:1]:
            yield line, "numbers", problem


def grouped_four_digits(text: str, locale: str) -> list[str]:
    """Whole numbers of four digits written with the locale's grouping separator (id 2.000, en 2,000, fr 2 000):
    every locale writes them ungrouped, as the grader's messages, `grader show` and the figures do
    (grader.languages.numerals.GROUP_FROM)."""
    from grader.languages.numerals import GROUP_FROM

    if GROUP_FROM <= 4:
        return []
    thousands = pages.FORMATS.get(locale, pages.FORMATS[SOURCE])[1]
    separators = re.escape("\u202f\u00a0" if thousands == "\u202f" else thousands)
    pattern = rf"(?<![\w.,\u202f\u00a0])([1-9])[{separators}](\d{{3}})(?![\w{separators}]|[.,]\d)"
    return [f"{m.group(0)} groups a whole number of four digits: every locale writes it as the grader and the figures "
            f"do, {m.group(1)}{m.group(2)}" for m in re.finditer(pattern, text)]


def decimal_point_fix(number: str, locale: str) -> str:
    """What to write instead of ``number`` (written with a decimal point): the same number, the locale's way."""
    from grader.languages.numerals import localized

    return f"{number} has a decimal point where this locale writes a decimal comma: write {localized(number, locale)}"


def decimal_point_numbers(lines, locale: str):
    """(line, number) of each number written with a decimal point in a locale that writes a decimal comma
    (0.471, 1.5e-4 with its exponent, 0.7 at a sentence's end; not a thousands grouping such as Indonesian 12.000,
    nor a part of 1.2.3), in the (line, text) given."""
    if not pages.writes_decimal_comma(locale):
        return
    grouping = re.escape(pages.FORMATS[locale][1])
    for line, text in lines:
        for m in re.finditer(r"(?<![\w.,\\])\d+\.\d+(?:[eE][+-]?\d+)?(?!\d|\.\d)", text):
            if not re.fullmatch(rf"[1-9]\d{{0,2}}(?:{grouping}\d{{3}})+", m.group(0)):
                yield line, m.group(0)


def decimal_points(lines, locale: str):
    """The lines, of (line, text), that write a decimal point in a locale that writes a decimal comma."""
    yield from dict.fromkeys(line for line, _ in decimal_point_numbers(lines, locale))


def check_lines(outline, translated, locale, glossary, skeleton, here):
    """Markers, '&', glossary renderings, English left in the page's prose."""
    yield from check_prose(pages.prose_lines(translated, keep_math=False), outline, locale, glossary)


def check_prose(lines, outline, locale, glossary):
    """The same over any (line, text) list: a page's prose, or the labels and messages of the other surfaces
    (hooks.translations.surfaces); `outline` needs English's `headings` and `sentences`."""
    allowed = allowed_words(glossary)
    for line, text in lines:
        marker = EXPORT_MARKER.search(text)
        if marker:
            yield line, "markers", f"export marker '{marker.group(0)}' is not text: delete it"
        if re.search(r"\s&\s", text):
            yield line, "punctuation", "'&' used for 'and': write the word"
        for problem in typography.problems(text, locale)[:1]:
            yield line, "typography", problem
        for term in glossary.terms:
            for avoid in term.get("avoid", []):
                if avoid and avoid in text:
                    yield line, "glossary", f"'{avoid}' for '{term['en']}': this locale writes '{term['use']}'"
        if locale == SOURCE:
            continue
        heading = pages.HEADING.match(text)
        if heading and heading.group(2).strip().lower() in outline["headings"] and latin_prose(heading.group(2), allowed):
            yield line, "untranslated", f"heading '{heading.group(2).strip()}' is the English one: translate it"
            continue
        left = [phrase for _, phrase in pages.sentences([(line, text)])
                if phrase in outline["sentences"] and latin_prose(phrase, allowed)]
        if left:
            yield line, "untranslated", f"'{left[0]}' is the English sentence: translate it"
        elif locale in CJK and (words := latin_prose(text, allowed)):
            yield line, "untranslated", (f"Latin-script words {', '.join(words)}: translate them, or add them "
                                         f"to `allow` in docs/{locale}/glossary.toml if they stay as they are")
        elif locale not in CJK and _looks_english(text):
            yield line, "untranslated", "this line is still in English: translate it"
        elif locale not in CJK and (words := english_words(text, locale, allowed)):
            yield line, "untranslated", (f"English word(s) {', '.join(words)}: translate them, or add them to `allow` "
                                         f"in docs/{locale}/glossary.toml if they stay as they are")


def check_glossary(outline, translated, locale, glossary, skeleton, here):
    """Required renderings, and identifiers kept verbatim (in backticks, and by the English glossary's list)."""
    kept = pages.code_spans(translated)
    for identifier, count in outline["identifiers"].items():
        if kept[identifier] < count:
            yield (_first_line(outline["source"], identifier, here, translated), "glossary",
                   f"`{identifier}` appears {count} time(s) in English, {kept[identifier]} here: "
                   "identifiers stay verbatim, in backticks")
    for identifier in glossary.identifiers:
        pattern = rf"(?<![A-Za-z0-9_-]){re.escape(identifier)}(?![A-Za-z0-9_-])"
        english, found = re.findall(pattern, outline["text"], re.I), re.findall(pattern, translated)
        if english and not found and identifier not in outline["identifiers"]:
            yield (_first_line(outline["source"], identifier, here, translated), "glossary",
                   f"'{identifier}' is an identifier: it stays verbatim in every locale")
    for term, renderings in unrendered_terms(outline["read"], translated, glossary.terms):   # code is not translated
        line = next((n for n, t in outline["prose"] if _mentions(t.lower(), term["en"])), 1)
        yield (here(line), "glossary", f"English uses '{term['en']}' in this section (line {line}); this locale "
               f"writes it '{renderings[0]}' (or add the form used here to the term's `also` in the glossary)")


def unrendered_terms(english: str, translated: str, terms) -> list[tuple[dict, list[str]]]:
    """(term, its renderings) of each glossary term English mentions that the translation does not render
    (`use`, or an `also` form); longest terms first, so "gradient descent" is not also a "gradient"."""
    text, english, found = _plain(translated), english.lower(), []
    for term in sorted(terms, key=lambda t: -len(t["en"])):
        if term["en"].lower() not in english:
            continue
        renderings = [r for r in (term.get("use", ""), *term.get("also", [])) if r]
        english, mentions = _term_regex(term["en"]).subn(" ", english)
        if renderings and mentions and not any(_plain(r) in text for r in renderings):
            found.append((term, renderings))
    return found


@lru_cache(maxsize=None)
def _term_regex(term: str) -> re.Pattern:
    return re.compile(_term_pattern(term))


PAGE_CHECKS = (check_structure, check_math, check_numbers, check_lines, check_glossary)


def _term_pattern(term: str) -> str:
    return rf"(?<![a-z-]){re.escape(term.lower())}(?:s|es)?(?![a-z-])"


def _mentions(lowered: str, term: str) -> bool:
    return re.search(_term_pattern(term), lowered) is not None


def _plain(text: str) -> str:
    return text.lower().replace("’", "'")


def _first_line(english: str, identifier: str, here, translated: str) -> int:
    """Where a lost identifier belongs: the first paragraph where English has more of it than the translation."""
    for number, line in enumerate(english.splitlines(), 1):
        if identifier in line:
            place = here(number)
            if place is None:                 # a section not translated yet: said once, as missing
                return None
            if pages.paragraph_at(translated, place).count(identifier) < \
                    pages.paragraph_at(english, number).count(identifier):
                return place
    return 1


def allowed_words(glossary: Glossary) -> frozenset[str]:
    """Latin-script words a page may keep (made once per glossary: every sentence of every page asks)."""
    return glossary.allowed_words


def latin_prose(text: str, allowed: set[str]) -> list[str]:
    """Latin-script words in the text that are prose: two letters or more, no digits, not allowed."""
    words = [w for w in pages.LATIN_WORD.findall(text) if len(w) > 1 and not re.search(r"[\d_]", w)]
    return [w for w in words if w.lower() not in allowed]


WORD = re.compile(r"[^\W\d_]{3,}(?:['’][^\W\d_]+)?")
COMMON_IN_ENGLISH, RARE_HERE = 3.0, 2.5      # Zipf frequencies: a few per million words, and under one in 3 million


def english_words(text: str, locale: str, allowed: set[str]) -> list[str]:
    """English words left in a Latin-script locale's prose: common in English and rare in the locale's own
    written language, by wordfreq's lists (a yardstick of real usage: `distance` and `page` are French too,
    `undecided` and `hint` are not). Words the glossary allows are kept."""
    return [w for w in WORD.findall(text)
            if w.lower() not in allowed and _frequency(w.lower(), "en") >= COMMON_IN_ENGLISH
            and max(_frequency(form, locale) for form in _forms(w.lower())) < RARE_HERE]


def _forms(word: str) -> tuple[str, ...]:
    """The word and its singular, as a frequency list may only know it (translations, translation)."""
    return (word, word[:-1]) if word.endswith(("s", "x")) and len(word) > 4 else (word,)


@lru_cache(maxsize=None)
def _frequency(word: str, locale: str) -> float:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, locale)


def _looks_english(text: str) -> bool:
    words = pages.LATIN_WORD.findall(text)
    stop = sum(word.lower() in ENGLISH_STOPWORDS for word in words)
    return stop >= 3 and stop >= 0.25 * len(words)


# --- what breaks a page, in any locale


LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")


def broken(text: str, path: str, pages_known: frozenset[str], known_ids: dict | None = None) -> list[Finding]:
    """Malformed blocks (naming ids outside `known_ids`, when given), markup that could run script, math that
    cannot render, links to no page."""
    from hooks.chapters.mathml import MathError, misread_separators, tex_to_mathml
    from hooks.chapters.sanitize import unsafe_in_chapter

    ids = {k: v for k, v in (known_ids or {}).items() if k != "parts"} if known_ids is not None else None
    parts = (known_ids or {}).get("parts")
    findings = [Finding(path, p.line, "block", p.message)
                for p in scan_blocks(text, path, known_ids=ids, known_parts=parts)[1]]
    findings += [Finding(path, line, "markup", message) for line, message in unsafe_in_chapter(text)]
    findings += [Finding(path, line, "math", "math in a heading: the table of contents would show it as raw TeX; "
                         "write it in words") for line, _, title in pages.headings(text) if "$" in title]
    for line, tex, is_display in pages.math_segments(text):
        try:
            markup = tex_to_mathml(tex.strip(), is_display)
        except MathError as error:
            findings.append(Finding(path, line, "math", str(error)))
            continue
        findings += [Finding(path, line, "math", f"${tex.strip()}$ renders {', '.join(map(repr, separators))} as an "
                             "identifier (<mi>), with no space after it: a separator is an operator (<mo>), "
                             "hooks/chapters/mathml.py") for separators in [misread_separators(markup)] if separators]
    links = [(line.number, m.group(1)) for line in chapter.scan(text).lines if line.kind == chapter.PROSE
             for m in LINK.finditer(line.text)]
    findings += [Finding(path, number, "link", f"no page '{page}' in English or here")
                 for number, page in links if page not in pages_known]
    return findings


STRUCTURAL = frozenset({Decimal(0), Decimal(1), Decimal(2)})  # "sums to 1", "two lines meet", ...


def known_ids() -> dict[str, frozenset]:
    """The ids an exercise or figure block may name, and under "parts" each exercise's part ids (which a hint
    may name), through the bank cache: no SymPy import when warm."""
    from hooks.chapters import cache

    def compute():
        from hooks.chapters import render

        return {"exercise": list(render.exercise_ids()), "figure": list(render.figure_ids()),
                "parts": render.course_parts()}

    found = cache.cached("ids-parts", [], compute, cache.code())
    return {kind: (frozenset(ids) if kind != "parts" else {e: tuple(p) for e, p in ids.items()})
            for kind, ids in found.items()}


def bank_values() -> dict[str, frozenset[Decimal]]:
    """Every number in each exercise's data, by exercise id (through the bank cache: no SymPy import
    when warm)."""
    from hooks.chapters import cache

    def compute():
        from grader import bank
        from grader.languages.numerals import finite_decimal

        def walk(value, found):
            if isinstance(value, (tuple, list)) or hasattr(value, "tolist"):
                for item in value:
                    walk(item, found)
            elif hasattr(value, "values"):
                for item in value.values():
                    walk(item, found)
            elif finite_decimal(value) is not None:
                found.add(finite_decimal(value))
            return found

        return {exercise.id: sorted(walk(exercise.data, set())) for exercise in bank.EXERCISES.values()}

    return {exercise: frozenset(Decimal(x) for x in values) - STRUCTURAL
            for exercise, values in cache.cached("exercise-data-values", [], compute, cache.code()).items()}


def restated(text: str, path: str, locale: str, bank: dict[str, frozenset[Decimal]]) -> list[Finding]:
    """Numbers of an exercise's data written by hand inside its block: the site renders them from the bank."""
    prose = dict(pages.prose_lines(text))
    exercise, depth, lines = None, 0, {}
    for line in chapter.scan(text).lines:
        if line.kind == chapter.BLOCK:
            header = re.match(r"\s*/{3,}\s*([\w-]*)\s*(?:\|\s*([\w-]+))?", line.text)
            if header.group(1):
                depth += 1
                if header.group(1) == "exercise" and exercise is None:
                    exercise = header.group(2) or ""
            else:
                depth -= 1
                if depth <= 0:
                    exercise, depth = None, 0
        elif exercise is not None and line.number in prose:
            lines.setdefault(exercise, []).append((line.number, prose[line.number]))
    return [
        Finding(path, line, "bank-number",
                f"{value} is exercise data: the site renders it from the grader's bank, write 'the data below'")
        for exercise, inside in lines.items()
        for line, value in pages.numbers(inside, locale, small=True) if value in bank.get(exercise, frozenset())
    ]
