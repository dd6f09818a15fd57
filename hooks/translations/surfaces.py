"""The translation checks of a locale's labels and grader catalog, and the checks across its surfaces.

A locale is read on three surfaces: its pages (hooks.translations.pagechecks), the site's labels
(docs/<locale>/labels.toml) and the grader's catalog (grader/locale/<locale>/LC_MESSAGES/grader.po).
A label or a message is a `Unit`: its English, its translation, and the line a translator edits. The
page checks' rules run on each unit (`pagechecks.check_prose`: glossary `avoid`, English left in,
markers, '&'; `pagechecks.decimal_points`), and three checks look across the surfaces: one rendering per
glossary term on every surface (`terminology`), an exercise's title the same in the catalog and on its
page (`title`), one apostrophe throughout the locale (`typography`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hooks.chapters import pages
from hooks.chapters.pages import SOURCE
from hooks.translations import typography
from hooks.translations.docs import english_only, label_lines, relative
from hooks.translations.pagechecks import (
    CJK,
    EXPORT_MARKER,
    Finding,
    Glossary,
    check_prose,
    decimal_point_fix,
    decimal_point_numbers,
    grouped_four_digits,
    latin_prose,
    unrendered_terms,
)
from hooks.translations.review import check_record


@dataclass(frozen=True)
class Unit:
    path: str     # the file, as findings name it
    line: int     # where the translation is written: the label's line, the message's msgstr
    key: str      # the label's dotted key, or the message's msgctxt
    english: str
    text: str


# --- the units of each surface


def label_units(docs: Path, locale: str, root: Path) -> list[Unit]:
    """Each label of docs/<locale>/labels.toml with its English (labels are located as the label check does)."""

    english, path = docs / SOURCE / "labels.toml", docs / locale / "labels.toml"
    if not (english.exists() and path.exists()):
        return []
    source = label_lines(english)
    return [Unit(relative(path, root), line, key, source[key][1], value)
            for key, (line, value) in label_lines(path).items()
            if key in source]


def catalog_units(locale: str, root: Path | None = None) -> list[Unit]:
    """Each translated message of the locale's grader catalog with its English msgid, at its msgstr's line;
    `root` holds grader/locale/ (default: this project's). Unreadable catalogs are the catalog check's."""
    from grader.languages.audit import CATALOG, PACKAGE
    from grader.languages.po import PoSyntaxError, read

    root = PACKAGE.parent if root is None else Path(root)
    name = CATALOG.as_posix().format(lang=locale)
    try:
        text = (root / name).read_text(encoding="utf-8")
        entries = read(text)
    except (OSError, UnicodeDecodeError, PoSyntaxError):
        return []
    if locale == SOURCE:                       # English's text is its msgid
        return [Unit(name, e.line, e.context, e.msgid, e.msgid) for e in entries if e.context]
    return [Unit(name, e.msgstr_line, e.context, e.msgid, e.msgstr) for e in entries if e.context and e.msgstr]


# --- what of a unit is prose: placeholders, code and formulas are not words

PLACEHOLDER = re.compile(r"(?<!\{)\{[A-Za-z_][\w.]*\}(?!\})")
CODE = re.compile(
    r"(?<![^\W\d_])'[^'\n]*'(?![^\W\d_])"     # a quoted answer or name: '(1, 2, 3)', ';' (not l'ordre)
    r"|\"[^\"]*\""                             # a quoted value: seed = "s0042"
    r"|`[^`]*`"
    r"|\$[A-Z_]+\b"                            # $GRADER_LANG
    r"|\$[^$]*\$"                              # math
    r"|(?<![\w-])--?[a-z][\w-]*"               # --seed
    r"|\[[\w.-]+\]"                            # a TOML table: [my-exercise]
    r"|\b[a-z]{1,4}(?:, [a-z]{1,4}){2,}\b"       # a list of names: sqrt, exp, log; en, ja, zh
    r"|\([a-z]+_[a-z_]+\)"                      # a data key after its description: (peak_lr)
    r"|[!-~]*[A-Za-z0-9]\([^()]*\)"             # sqrt(2), lr(s), v(word)
    r"|[!-~]*[_/\\=*^][!-~]*"                    # warmup_steps, 3/20000, /autograder/results, 2*x
    r"|[A-Za-z]\w*\.[a-z]\w*"                   # results.jsonl
)
OPERAND = r"[A-Za-z0-9_.]+(?:\([^()]*\))?"
FORMULA = re.compile(rf"{OPERAND}(?:\s+[-+*/=<>≤≥·]=?\s+{OPERAND})+")  # lr(s) = peak * s / warmup_steps, q . k_i


def prose(text: str, names: tuple[str, ...] = (), formulas: bool = True) -> str:
    """The words of a label or message: placeholders, formulas and code blanked (`{x}` is not a word); an
    export marker is left for the markers check. ``names``: identifiers the text may give in brackets after
    their description (a datum's name: 'fraction of the peak (fraction)'); ``formulas`` False: formulas kept
    (a list of constraints, `H ≥ 0.5, D ≤ 0.25`, is punctuated as prose)."""
    for name in names:
        text = text.replace(f"({name})", " ")
    pieces = EXPORT_MARKER.split(text)
    markers = EXPORT_MARKER.findall(text)
    for index, piece in enumerate(pieces):
        piece = PLACEHOLDER.sub(" ", piece).replace("{{", "{").replace("}}", "}")
        if formulas:
            piece = FORMULA.sub(lambda m: " " if _code(m.group(0)) else m.group(0), piece)
        for _ in range(2):                     # a call inside a call: softmax(q . k_i / sqrt(d_k))
            piece = CODE.sub(" ", piece)
        pieces[index] = piece
    return "".join(piece + marker for piece, marker in zip(pieces, [*markers, ""]))


def _code(formula: str) -> bool:
    """A formula of code (lr(s) = peak * s / warmup_steps), not words around a sign (1 - cosine similarity)."""
    return any(re.search(r"[_(]|^[A-Za-z]$", operand) for operand in re.findall(OPERAND, formula))


# --- the page checks, on each label and message


def check_units(units: list[Unit], locale: str, glossary: Glossary) -> list[Finding]:
    """The page checks' rules on each unit, against its own English, and one rendering per glossary term."""
    findings = []
    for unit in units:
        names = (unit.key.rsplit(".", 1)[-1],) if unit.key.startswith("data.") else ()
        english, text = prose(unit.english, names), prose(unit.text, names)
        outline = {"headings": set(), "sentences": {p for _, p in pages.sentences([(unit.line, english)])}}
        for line, kind, message in check_prose([(unit.line, text)], outline, locale, glossary):
            findings.append(Finding(unit.path, line, kind, f"{unit.key}: {message}"))
        if locale != SOURCE and unit.text == unit.english and \
                len(latin_prose(text, set())) >= (1 if locale in CJK else 2):
            findings.append(Finding(unit.path, unit.line, "untranslated", f"{unit.key}: still the English text"))
        findings += [Finding(unit.path, unit.line, kind, f"{unit.key}: {message}")
                     for kind, message in check_numbers(unit, locale)]
        if locale == "ko":
            findings += [Finding(unit.path, unit.line, "particle", f"{unit.key}: {problem}")
                         for problem in typography.particles(unit.text)[:1]]
        for term, renderings in unrendered_terms(english, text, glossary.terms):
            findings.append(Finding(unit.path, unit.line, "terminology", (
                f"{unit.key}: English says '{term['en']}'; this locale writes it '{renderings[0]}' on every "
                "surface (or add the form used here to the term's `also` in the glossary)")))
    return _once(findings)


def check_numbers(unit: Unit, locale: str):
    """The unit's figures are English's, written in the locale's format. A message whose English writes a
    decimal comma is about the decimal marks (the decimal-comma rules): it shows both in every locale."""
    if re.search(r"\d,\d", unit.english):
        return
    found = next(decimal_point_numbers([(0, _figures(unit.text))], locale), None)
    if found is not None:
        yield "numbers", decimal_point_fix(found[1], locale)
        return
    for problem in grouped_four_digits(_figures(unit.text), locale)[:1]:
        yield "numbers", problem
        return
    english = Counter(v for _, v in pages.numbers([(0, _figures(unit.english))], SOURCE))
    found = Counter(v for _, v in pages.numbers([(0, _figures(unit.text))], locale))
    extra, missing = sorted((found - english).elements()), sorted((english - found).elements())
    if extra:
        yield "numbers", (f"{extra[0]} differs from English ({', '.join(map(str, english.elements())) or 'none'}): "
                          "check the figure and its format")
    elif missing:
        yield "numbers", f"English's {missing[0]} is missing here: write it, in this locale's format"


def _figures(text: str) -> str:
    return PLACEHOLDER.sub(" ", text)


def _once(findings: list[Finding]) -> list[Finding]:
    """Each (path, line, kind) once: two rules that see the same defect report it once."""
    seen, kept = set(), []
    for finding in findings:
        if (finding.path, finding.line, finding.kind) not in seen:
            seen.add((finding.path, finding.line, finding.kind))
            kept.append(finding)
    return kept


# --- across the surfaces


def check_page_terms(english: str, translated: str, path: str, glossary: Glossary) -> list[Finding]:
    """One rendering per term on a page: each paragraph (or, when the pages' paragraphs differ in number, each
    section between headings and blocks) renders every glossary term its English paragraph names."""
    english_starts, translated_starts = pages.paragraph_starts(english), pages.paragraph_starts(translated)
    if len(english_starts) != len(translated_starts):
        english_starts = [line for line, _ in pages.structure(english, "en")]
        translated_starts = [line for line, _ in pages.structure(translated, path)]
        if len(english_starts) != len(translated_starts):
            return []                          # the structure check reports it; the page's glossary check stands
    english_parts = _between(english, english_starts)
    translated_parts = _between(translated, translated_starts)
    return [Finding(path, line, "terminology", f"English says '{term['en']}' here; this locale writes it "
                    f"'{renderings[0]}' on every surface (or add the form used here to the term's `also` in the "
                    "glossary)")
            for (_, english_part), (line, part) in zip(english_parts, translated_parts)
            for term, renderings in unrendered_terms(english_part, part, glossary.terms)]


def _between(text: str, starts: list[int]) -> list[tuple[int, str]]:
    """(first line, prose) of the text from each start to the next: what a reader reads, math and code left out."""
    prose_of = dict(pages.prose_lines(text, keep_math=False))
    bounds = [*starts, len(text.splitlines()) + 1]
    return [(first, "\n".join(prose_of.get(n, "") for n in range(first, end)))
            for first, end in zip(bounds, bounds[1:])]


def exercise_headings(text: str, path: str) -> dict[str, tuple[int, str]]:
    """Exercise id -> (line, title) of the heading that introduces its block: the last section heading before
    it. A page's title (its level-1 heading) names the chapter, not an exercise, so it introduces none."""
    found, heading = {}, None
    headings = {line: title for line, level, title in pages.headings(text) if level > 1}
    for line, item in pages.structure(text, path):
        if item == "h1":
            heading = None
        elif line in headings:
            heading = (line, headings[line].strip())
        elif item.startswith("exercise:") and heading is not None:
            found[item.removeprefix("exercise:")] = heading
    return found


def check_titles(docs: Path, locale: str, root: Path, units: list[Unit]) -> list[Finding]:
    """An exercise's title in the catalog (exercise.<id>.title) is the heading that introduces it on its page."""

    titles = {m.group(1): unit for unit in units if (m := re.fullmatch(r"exercise\.([\w-]+)\.title", unit.key))}
    findings = []
    for page in sorted((docs / locale).glob("*.md")):
        shown = relative(page, root)
        for exercise, (line, heading) in exercise_headings(page.read_text("utf-8"), shown).items():
            unit = titles.get(exercise)
            if unit is not None and " ".join(unit.text.split()) != " ".join(heading.split()):
                findings.append(Finding(unit.path, unit.line, "title", (
                    f"{unit.key}: the catalog titles the exercise '{unit.text}', its page '{heading}' "
                    f"({shown}:{line}): write one title in both")))
    return findings


APOSTROPHE = re.compile(r"(?<=[^\W\d_])['’](?=[^\W\d_])")     # between two letters: l’attention, v2's


def check_typography(texts: list[tuple[str, int, str]], locale: str) -> list[Finding]:
    """One apostrophe throughout a locale: the one most of its pages, labels and messages use (`texts`:
    (path, line, text)). A tie goes to the typographic ’."""
    used = Counter(mark for _, _, text in texts for mark in APOSTROPHE.findall(text))
    if len(used) < 2:
        return []
    style = max("’'", key=lambda mark: used[mark])
    other = "'" if style == "’" else "’"
    return [Finding(path, line, "typography", f"apostrophe {other} where this locale writes {style} "
                    f"({used[style]} times on its pages, labels and messages, {other} {used[other]} times): "
                    "one style throughout")
            for path, line, text in texts if other in APOSTROPHE.findall(text)]


def check_surfaces(docs: Path, locale: str, root: Path, glossary: Glossary,
                   catalog_root: Path | None = None) -> list[Finding]:
    """The checks across the locale's surfaces, its pages, labels and catalog (its pages' own checks are
    hooks.translations.pagechecks', its labels' and messages' own :func:`check_words`'). `catalog_root` holds
    grader/locale/ (default: this project's)."""

    labels, messages = label_units(docs, locale, root), catalog_units(locale, catalog_root)
    findings = check_titles(docs, locale, root, messages)
    texts = [(u.path, u.line, prose(u.text)) for u in labels + messages]
    for page in sorted((docs / locale).glob("*.md")):
        english = docs / SOURCE / page.name
        text, shown = page.read_text("utf-8"), relative(page, root)
        if english_only(text):
            continue
        texts += [(shown, line, part) for line, part in pages.prose_lines(text, keep_math=False)]
        if locale != SOURCE and english.exists():
            findings += check_page_terms(english.read_text("utf-8"), text, shown, glossary)
    findings += check_typography(texts, locale)
    findings += check_record(docs, locale, root, catalog_root)
    return findings


def check_words(docs: Path, locale: str, root: Path, glossary: Glossary,
                catalog_root: Path | None = None) -> list[Finding]:
    """The page checks' rules on each of the locale's labels and catalog messages (no page read: a page's
    save does not check them again)."""
    if locale == SOURCE:
        return []
    return check_units(label_units(docs, locale, root) + catalog_units(locale, catalog_root), locale, glossary)
