"""The grader's messages as a student reads them: each one with its values filled in, checked in its locale.

A template can be clean and still read badly once composed: a message that embeds another one (`wrong-form`
embeds a whole form description, colon included), a value that brings its own punctuation, a quote that cuts
the student's number. So every message is written here with the values the grader really gives it:

- from the bank (`bank_said`): each part's prompt with its parameters, each exercise's title, data labels and
  forms, `grader show`'s lines (`show.heading`, `show.data-item` with the datum as it prints it, `show.part`,
  `label-form`), and `wrong-form` for every part's form against every kind of answer;
- from answers (`answered_said`): the checker's corpus (hooks.checker.corpus: every example of the manual, every
  named mistake, exact forms, decimals around the tolerance, malformed and hostile answers) judged in every
  locale's convention, and every answer-like string of the grader's tests read in every convention (the
  refusals of the reader quote them);

and `check_composed` runs the locale's typography, Korean particle agreement, English left in, and the
composition's own rules (an embedded message whose own colon leaves the sentence running on, a space between
two CJK characters, a quote that cuts a number) on the text, reporting at the message's msgstr line what its
template alone does not show. `compose` writes a message as grader.languages.messages.message does, with the
place of every value marked (a test holds the two to the same text).
"""

from __future__ import annotations

import numbers
import re
import string
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Callable

from hooks.chapters.pages import SOURCE
from hooks.checker import manual
from hooks.translations import typography
from hooks.translations.pagechecks import (
    CJK,
    Finding,
    Glossary,
    allowed_words,
    decimal_point_numbers,
    english_words,
    latin_prose,
)

REF = "key:"


@dataclass(frozen=True)
class Localized:
    """A value the grader writes differently per language with a function of its own (a datum as `grader show`
    prints it): ``text(lang)``."""
    text: Callable[[str], str]
    name: str = ""

    def __repr__(self) -> str:
        return self.name or "a value"


@dataclass(frozen=True)
class Said:
    """A message with the values the grader gives it, and where they come from (for the finding)."""
    key: str
    params: tuple[tuple[str, object], ...]
    origin: str
    answer: str | None = None        # the student's answer, when the message is about it
    convention: str | None = None    # the locale whose reading of the answer gave it (None: every locale)


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    kind: str         # "message" (an embedded one), "fallback" (one the locale lacks: in English, the catalog's
    #                   warning), "text" (the student's or code: not words), "value"
    key: str = ""     # an embedded message's key
    own: str = ""     # an embedded message's own text


@dataclass(frozen=True)
class Composed:
    text: str
    spans: tuple[Span, ...]


# --- the templates, as the grader reads them


def templates(locale: str, root: Path | None = None) -> dict[str, str]:
    """{key: template} of a locale's catalog as grader.languages.messages.catalog reads it (non-fuzzy entries
    with a msgstr; English: every msgid), from `root`'s grader/locale/ (default: this project's)."""
    from grader.languages.audit import CATALOG, PACKAGE
    from grader.languages.po import PoSyntaxError, read

    path = (PACKAGE.parent if root is None else Path(root)) / CATALOG.as_posix().format(lang=locale)
    try:
        entries = read(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, PoSyntaxError):
        return {}
    return {e.context: e.msgstr or (e.msgid if locale == SOURCE else "") for e in entries
            if e.context and not e.fuzzy and (e.msgstr or locale == SOURCE)}


def compose(key: str, params: dict, lang: str, table: dict[str, str], english: dict[str, str]) -> Composed:
    """The message ``key`` in ``lang`` with ``params``, as grader.languages.messages.message writes it (a
    ``key:`` value is the message it names, with the same parameters; text as it is; any other value in the
    language's format), with each value's place in the text."""
    from grader.languages.messages import rule_params
    from grader.languages.numerals import format_value

    template = table.get(key) or english.get(key)
    if template is None:
        return Composed(key, ())
    out, spans, at = [], [], 0
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(literal)
        at += len(literal)
        if name is None:
            continue
        value = dict(params).get(name, rule_params().get(name, "?"))
        if isinstance(value, str) and value.startswith(REF) and value[len(REF):] in english:
            inner = compose(value[len(REF):], {n: p for n, p in params.items() if n != name}, lang, table, english)
            kind = "message" if value[len(REF):] in table else "fallback"      # not translated: shown in English
            spans.append(Span(at, at + len(inner.text), kind, value[len(REF):], inner.text))
            spans += [Span(s.start + at, s.end + at, s.kind, s.key, s.own) for s in inner.spans if s.kind == "text"]
            piece = inner.text
        elif isinstance(value, Localized):
            piece = value.text(lang)
            spans.append(Span(at, at + len(piece), "value"))
        elif isinstance(value, Exact):
            piece = str(value)
            spans.append(Span(at, at + len(piece), "value"))
        elif isinstance(value, str):
            piece = value
            spans.append(Span(at, at + len(piece), "text"))
        else:
            piece = format_value(value, lang)
            spans.append(Span(at, at + len(piece), "value"))
        out.append(piece)
        at += len(piece)
    return Composed("".join(out), tuple(spans))


# --- the values the grader gives its messages


def bank_said() -> list[Said]:
    """The messages the bank fills: prompts, titles, data labels, forms, `grader show`'s lines, `wrong-form`."""
    from grader import bank
    from grader.model.display import data_text
    from grader.model.exercise import KINDS

    kinds = sorted({"scalar" if kind in ("real", "integer") else kind for kind in KINDS})
    said = []
    for ex in bank.EXERCISES.values():
        lesson = ("lesson", f"{REF}label-lesson")
        said.append(Said("show.heading", (("id", ex.id), ("title", f"{REF}exercise.{ex.id}.title"), lesson,
                                          ("n", ex.lesson)), f"grader show {ex.id}"))
        for name, value in ex.data.items():
            shown = Localized(lambda lang, value=value: data_text(value, lang), f"{ex.id}'s {name}")
            said.append(Said("show.data-item", (("label", f"{REF}data.{ex.id}.{name}"), ("value", shown)),
                             f"grader show {ex.id}, its {name}"))
        for part in ex.parts:
            where = f"{ex.id} {part.id}"
            said.append(Said(f"part.{ex.id}.{part.id}.prompt", part.params, f"the prompt of {where}"))
            said.append(Said("show.part", (("part", part.id), ("points", part.points),
                                           ("prompt", f"{REF}part.{ex.id}.{part.id}.prompt"), *part.params),
                             f"grader show {ex.id}, part {part.id}"))
            said.append(Said("label-form", (("form", f"{REF}{part.form}"),), f"grader show {ex.id}, part {part.id}"))
            said += [Said("wrong-form", (("expected", f"{REF}{part.form}"), ("got", f"{REF}kind-{kind}")),
                          f"{where} answered with a {kind}") for kind in kinds]
    return said


def answered_said() -> list[Said]:
    """The messages answers get: the checker's corpus judged in every locale's convention (one judgment per
    distinct reading), and the grader's tests' answer-like strings read in every convention (their refusals)."""
    from grader.judging.check import judge, part_info
    from grader.languages.messages import LOCALES
    from grader.reading import parse
    from hooks.checker import corpus

    said, judged = [], {}
    for case in corpus.corpus():
        info = part_info(case.exercise, case.part, case.seed)
        for convention in LOCALES:
            try:
                reading = parse.read(case.answer, convention=convention, shape=parse.shape_of(info.kind, info.length))
            except parse.AnswerSyntaxError as error:
                said.append(_refusal(error, case.answer, convention))
                continue
            except Exception:  # noqa: BLE001  (an answer the judge itself reports as an internal error)
                continue
            where = (case.exercise, case.part, case.seed, reading.kind, reading.tree)
            if where not in judged:
                judged[where] = judge(case.exercise, case.part, case.answer, seed=case.seed, convention=convention,
                                      limited=False).findings
            origin = f"{case.exercise} {case.part} answered {case.answer!r}"
            said += [Said(f.key, f.params, origin, case.answer) for f in judged[where]]
    for answer in corpus.grader_test_answers():
        for convention in LOCALES:
            # as a reader of the locale writes it too: 2_000.5 is 2_000,5 where the decimal mark is a comma
            for text in dict.fromkeys([answer, _with_decimal_mark(answer, convention)]):
                try:
                    parse.read(text, convention=convention, shape=())
                except parse.AnswerSyntaxError as error:
                    said.append(_refusal(error, text, convention))
                except Exception:  # noqa: BLE001
                    continue
    return said


def _with_decimal_mark(answer: str, locale: str) -> str:
    from grader.languages.numerals import number_format

    return re.sub(r"(?<=[0-9])\.(?=[0-9])", number_format(locale)[0], answer)


def _refusal(error, answer: str, convention: str) -> Said:
    return Said(error.error.key, error.error.params, f"the answer {answer!r} read in {convention}", answer, convention)


@lru_cache(maxsize=1)
def everything_said() -> tuple[Said, ...]:
    """Every message with its values, each once: computed once per version of the grader, its corpus and its tests
    (the disk cache), not once per catalog: a translator's edit neither judges the corpus nor imports SymPy again."""
    from hooks.chapters import cache

    sources = sorted(cache.ROOT.glob("grader/**/*.py")) + sorted(cache.ROOT.glob("tests/grader/test_*.py")) + \
        [cache.ROOT / "hooks" / "checker" / "corpus.py", cache.ROOT / "hooks" / "translations" / "composed.py",
         *manual.paths(cache.ROOT)]     # this file too: how it stores a value is part of what it stored
    rows = cache.cached("said", [], lambda: [row for s in dict.fromkeys([*bank_said(), *answered_said()])
                                             if _storable(row := _encoded(s))], sources)
    return tuple(_decoded(row) for row in rows)


class Exact(str):
    """An exact form (sqrt(2)/2) as the grader writes it in every language: a value, not the student's text."""


def _value(value):
    from grader.languages.numerals import Percent, Series

    if isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, numbers.Integral):     # a SymPy Integer (a prompt's 20000): a number in each language's format
        return int(value)
    if isinstance(value, Localized):
        from grader.languages.messages import LOCALES
        return {"localized": [value.name, {lang: value.text(lang) for lang in LOCALES}]}
    if isinstance(value, Percent):
        return {"percent": [value.numerator, value.denominator]}
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, (tuple, list)):
        return {"series" if isinstance(value, Series) else "tuple": [_value(v) for v in value]}
    if hasattr(value, "decimal") and hasattr(value, "lo"):     # a proven interval: written as its value
        return float(value)
    from grader.languages.numerals import format_value
    return {"exact": format_value(value, SOURCE)}


def _unvalue(value):
    from grader.languages.numerals import Percent, Series

    if not isinstance(value, dict):
        return value
    (kind, inner), = value.items()
    return {"percent": lambda: Percent(*inner), "fraction": lambda: Fraction(*inner), "decimal": lambda: Decimal(inner),
            "series": lambda: Series(_unvalue(v) for v in inner), "tuple": lambda: tuple(_unvalue(v) for v in inner),
            "exact": lambda: Exact(inner),
            "localized": lambda: Localized(lambda lang, texts=inner[1]: texts.get(lang, texts[SOURCE]), inner[0])}[kind]()


def _encoded(said: Said) -> list:
    return [said.key, [[name, _value(value)] for name, value in said.params], said.origin, said.answer, said.convention]


def _storable(row: list) -> bool:
    """Can the disk cache write it? An answer holding half a character (a lone surrogate) cannot be UTF-8."""
    import json

    try:
        json.dumps(row, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _decoded(row: list) -> Said:
    key, params, origin, answer, convention = row
    return Said(key, tuple((name, _unvalue(value)) for name, value in params), origin, answer, convention)


# --- the checks of a composed message


CJK_TEXT = f"[{typography.CJK_CHAR}\u3000-\u303f\uff00-\uffef]"
STRAY_SPACE = re.compile(rf"(?<={CJK_TEXT}) +(?={CJK_TEXT})")
SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？]")
WORDS_AFTER = re.compile(r"[^\W\d_]", re.UNICODE)
STUDENT = "\ue000"    # what stands for the student's text or code in the text the checks read
BRACKETED = re.compile(r"\([^()]*\)|（[^（）]*）")   # a colon in brackets is the bracket's own: (例：4)


def blanked(composed: Composed) -> str:
    """The text with the student's text and code (the "text" values) replaced: they are not the locale's words; so
    is a message the locale has not translated yet (shown in English: the catalog-untranslated warning says so)."""
    chars = list(composed.text)
    for span in composed.spans:
        if span.kind in ("text", "fallback"):
            chars[span.start:span.end] = [STUDENT] * (span.end - span.start)
    return "".join(chars)


def run_ons(composed: Composed) -> list[str]:
    """An embedded message with a colon of its own (a label and its description) that the sentence goes on
    after: 'expected a vector (k_1, k_2, k_3): one number per key, in key order, but this is ...'."""
    found = []
    for span in composed.spans:
        if span.kind != "message" or not re.search(r"[:：]", BRACKETED.sub("", span.own)):
            continue
        rest = composed.text[span.end:]
        end = SENTENCE_END.search(rest)
        if WORDS_AFTER.search(rest[:end.start() if end else len(rest)]):
            found.append(f"it embeds {span.key} ('{span.own}'), whose own colon leaves the sentence running on "
                         "after it: end the sentence with it (after a colon of this message's own), or embed a "
                         "message without a colon")
    return found


def stray_spaces(text: str) -> list[str]:
    """A space between two CJK characters (Japanese and Chinese do not space words): often a template's space
    before a value that turns out to be CJK text itself."""
    return [f"a space between '{text[m.start() - 1]}' and '{text[m.end()]}': Japanese and Chinese set no space "
            "between their characters" for m in STRAY_SPACE.finditer(text)]


def cut_quotes(composed: Composed, answer: str | None, locale: str) -> list[str]:
    """A quote of the student's answer that starts or ends inside one of its numbers (`0,000_1` quoted as
    '000_1' in a language whose decimal mark is the comma)."""
    from grader.languages.numerals import number_format

    if answer is None:
        return []
    mark, found = re.escape(number_format(locale)[0]), []
    for span in composed.spans:
        quoted = composed.text[span.start:span.end]
        if span.kind != "text" or not quoted.strip() or quoted not in answer:
            continue
        at = answer.index(quoted)
        before, after = answer[:at], answer[at + len(quoted):]
        mark_after = "" if re.search(mark, quoted) else f"{mark}?"     # '0,5' of '0,5,0': a number of its own
        if (re.search(r"[0-9]$", quoted) and re.match(rf"{mark_after}[0-9]", after)) or \
                (re.match(r"[0-9]", quoted) and re.search(rf"[0-9]{mark}?$", before)):
            found.append(f"it quotes '{quoted}' of the answer '{answer}', cutting a number of it: the reader "
                         "(grader/reading) must quote the whole number")
    return found


HANGUL_BASE, HANGUL_LAST = 0xAC00, 0xD7A3
# a particle's two forms: (after a final consonant, after a vowel); 로 also follows a final ㄹ
PARTICLE_FORMS = (("은", "는"), ("이", "가"), ("을", "를"), ("과", "와"), ("으로", "로"))
DIGIT_ENDS = {"0": True, "1": True, "2": False, "3": True, "4": False, "5": False, "6": True, "7": True, "8": True,
              "9": False}   # 영 일 이 삼 사 오 육 칠 팔 구: does the digit's Korean name end in a consonant?


def _final(text: str) -> tuple[bool, bool] | None:
    """(ends in a consonant, that consonant is ㄹ) of the text's last sound, when Korean can say it; else None."""
    last = text.rstrip(")'\"’”」』 ")[-1:]
    if last.isdigit() and last in DIGIT_ENDS:
        return DIGIT_ENDS[last], last in "178"
    if last and HANGUL_BASE <= ord(last) <= HANGUL_LAST:
        final = (ord(last) - HANGUL_BASE) % 28
        return final != 0, final == 8
    return None


def particle_agreement(composed: Composed) -> list[str]:
    """A Korean particle right after a value that does not agree with the value's last sound."""
    found = []
    for span in composed.spans:
        rest, sound = composed.text[span.end:], _final(composed.text[span.start:span.end])
        rest = rest[re.match(r"[)'\"’”」』]*", rest).end():]       # ({count})을: the particle follows the bracket
        if sound is None:
            continue
        for consonant_form, vowel_form in PARTICLE_FORMS:
            for form in (consonant_form, vowel_form):
                if rest.startswith(form) and not (form == "이" and re.match(r"이[가-힣]", rest)):
                    right = consonant_form if sound[0] and not (form == "로" and sound[1]) else vowel_form
                    if form == "으로" and sound[1]:
                        right = "로"
                    if form != right:
                        found.append(f"'{composed.text[span.start:span.end]}{form}': after this value Korean "
                                     f"writes {right}; write a construction that reads right whatever the value")
                    break
            else:
                continue
            break
    return found


@dataclass(frozen=True)
class Own:
    """What a template shows alone (its own problems and words), so a composed text reports only what its values
    bring: computed once per message."""
    typography: frozenset
    latin: frozenset


def own(template: str, locale: str, allowed: set[str]) -> Own:
    from hooks.translations.surfaces import prose

    plain = prose(template)
    words = latin_prose(plain, allowed) if locale in CJK else english_words(plain, locale, allowed)
    return Own(frozenset(typography.problems(plain, locale)), frozenset(words))


def problems(composed: Composed, template: Own, english: str, locale: str, said: Said, glossary: Glossary,
             allowed: set[str]) -> list[tuple[str, str]]:
    """(kind, problem) of a composed message in its locale that its template alone (`template`) does not have
    (`english`: the message's English template; `allowed`: the Latin-script words the locale keeps)."""
    from hooks.translations.surfaces import prose

    names = tuple(s.key.rsplit(".", 1)[-1] for s in composed.spans if s.kind == "message" and s.key.startswith("data."))
    text = blanked(composed)
    words = prose(text, names)
    for identifier in glossary.identifiers:      # a value may name a data source: it stays as it is
        words = re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(identifier)}(?![A-Za-z0-9_-])", " ", words)
    found = [("composed", problem) for problem in run_ons(composed)]
    found += [("composed", problem) for problem in cut_quotes(composed, said.answer, locale)]
    found += [("typography", p) for p in typography.problems(words, locale) if p not in template.typography]
    if locale in ("ja", "zh"):
        found += [("typography", p) for p in stray_spaces(text) + typography.cjk_lists(prose(text, names, False))
                  if p not in template.typography]
    if locale == "ko":
        found += [("particle", p) for p in particle_agreement(composed)]
    new = latin_prose(words, allowed) if locale in CJK else english_words(words, locale, allowed)
    new = [w for w in new if w not in template.latin]
    if new:
        found.append(("untranslated", f"English word(s) {', '.join(new)} once its values are filled in"))
    if not re.search(r"\d,\d", english):        # a message about the decimal marks shows both (surfaces.check_numbers)
        found += [("numbers", f"{number} has a decimal point once its values are filled in, where this locale "
                   "writes a decimal comma") for _, number in decimal_point_numbers([(0, words)], locale)]
    return found


def check_composed(locale: str, glossary: Glossary, root: Path | None = None,
                   said: tuple[Said, ...] | None = None) -> list[Finding]:
    """Every message of the locale's catalog with the grader's values filled in (`said`: default
    `everything_said()`), checked; each (message, kind) found once, at its msgstr line. `root` holds
    grader/locale/ (default: this project's). English is the source: its wording is checked as written."""
    from hooks.translations.surfaces import catalog_units

    if locale == SOURCE:
        return []
    table, english = templates(locale, root), templates(SOURCE, root)
    lines = {unit.key: (unit.path, unit.line) for unit in catalog_units(locale, root)}
    findings, seen, read, allowed, owns = [], set(), set(), allowed_words(glossary), {}
    for one in everything_said() if said is None else said:
        if one.key not in lines or (one.convention is not None and one.convention != locale):
            continue
        composed = compose(one.key, dict(one.params), locale, table, english)
        if (one.key, composed.text, one.answer) in read:
            continue
        read.add((one.key, composed.text, one.answer))
        if one.key not in owns:
            owns[one.key] = own(table[one.key], locale, allowed)
        for kind, problem in problems(composed, owns[one.key], english[one.key], locale, one, glossary, allowed):
            if (one.key, kind) not in seen:
                seen.add((one.key, kind))
                path, line = lines[one.key]
                findings.append(Finding(path, line, kind, f"{one.key}, as the grader writes it for {one.origin} "
                                        f"('{composed.text}'): {problem}"))
    return findings
