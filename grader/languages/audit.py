"""Check the grader's catalogs against English, with Babel (gettext's reference reader).

    python -m grader.languages [LOCALE ...]

prints one ``path:line: kind: message`` per finding and exits 1 if there is an error: every
kind but the warnings (:data:`WARNINGS`: a message a locale has not translated, or has marked
fuzzy, is shown in English, as gettext does; it is listed, not an error).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Mapping

from grader.languages.messages import DEFAULT, FIELDS, LOCALES, placeholders, template_problem
from grader.languages.po import PoSyntaxError, read

PACKAGE = Path(__file__).resolve().parents[1]          # .../grader
CATALOG = Path("grader", "locale", "{lang}", "LC_MESSAGES", "grader.po")
KINDS = ("syntax", "missing", "untranslated", "placeholders", "format", "fuzzy", "stale", "orphan",
         "duplicate", "no-key")
WARNINGS = frozenset({"untranslated", "fuzzy"})    # the grader shows the English text: not an error


def _read(path: Path):
    """(messages with a key, findings) of one catalog, read with Babel.

    The grader's own reader (:mod:`grader.languages.po`) must read it too: Babel
    forgives some slips (an unclosed quote) that would stop the grader.
    """
    from babel.messages.pofile import PoFileError, read_po
    try:
        written = {entry.line: entry.msgstr_line for entry in read(path.read_text(encoding="utf-8"))}
        with path.open("rb") as handle:
            catalog = read_po(handle, abort_invalid=True)
    except PoSyntaxError as exc:
        return None, [(exc.line, "syntax", exc.reason)]
    except PoFileError as exc:
        return None, [(getattr(exc, "lineno", 1) or 1, "syntax", str(exc))]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [(1, "syntax", f"cannot read the catalog: {exc}")]
    messages = [m for m in catalog if m.id]
    for m in messages:     # where its translation is written: a finding about the translation points there
        m.msgstr_line = written.get(m.lineno, m.lineno)
    findings = [(m.lineno, "no-key", f"entry without msgctxt (its stable key): '{m.id[:40]}'")
                for m in messages if not m.context]
    keyed = [m for m in messages if m.context]
    counts = Counter(m.context for m in keyed)
    seen = set()
    for m in keyed:
        if counts[m.context] > 1 and m.context in seen:
            findings.append((m.lineno, "duplicate", f"'{m.context}' appears {counts[m.context]} times"))
        seen.add(m.context)
    return keyed, findings


def check_catalogs(root: Path | str | None = None, locales: tuple[str, ...] = LOCALES,
                   needed: Mapping[str, str] | None = None) -> list[tuple[str, int, str, str]]:
    """Every problem of the grader's message catalogs, as ``(path, line, kind, message)``.

    ``root`` is the folder holding ``grader/`` (the repository root; default:
    where this package is); catalogs are ``grader/locale/<locale>/LC_MESSAGES/grader.po``
    and ``path`` is relative to ``root``, in POSIX form. ``line`` is the 1-based
    line of the entry's ``msgstr`` in that file when the finding is about the
    translation (``untranslated``, ``format``, ``placeholders`` of a locale's entry),
    else of its ``msgid`` (1 when the entry or file is absent). ``kind`` is one of:

    ``syntax`` the file cannot be read as PO; ``missing`` a key the code needs
    (``needed``: key -> the file that uses it, such as an exercise module's keys) that
    English lacks; ``untranslated`` (a warning) an English key with no translation (no
    catalog, no entry, or an empty msgstr: the grader shows the English text);
    ``placeholders`` ``{names}`` differ from English; ``format`` not a valid
    message (:func:`grader.languages.messages.template_problem`: braces that do not parse, a field
    that is not a plain name, or in English one the grader does not fill in, such as TeX's
    ``\\operatorname{softmax}``: a literal brace is doubled); ``fuzzy`` (a warning) marked fuzzy (not used until checked);
    ``stale`` the entry's msgid is not English's current text (English changed
    since it was translated); ``orphan`` a key English does not have;
    ``duplicate`` a key given twice; ``no-key`` an entry without ``msgctxt``.

    Pure apart from reading the catalogs; sorted by path and line. English is
    checked for ``syntax``, ``format``, ``duplicate`` and ``no-key``.
    """
    root = PACKAGE.parent if root is None else Path(root)
    findings: list[tuple[str, int, str, str]] = []
    english_rel = CATALOG.as_posix().format(lang=DEFAULT)
    english, problems = _read(root / english_rel)
    findings += [(english_rel, line, kind, text) for line, kind, text in problems]
    if english is None:
        return sorted(findings)
    reference = {m.context: m for m in english}
    for key, where in sorted((needed or {}).items()):
        if key not in reference:
            findings.append((english_rel, 1, "missing", f"no entry '{key}', which {where} uses: add it to "
                             f"{english_rel} (msgctxt \"{key}\", msgid its English text, msgstr \"\")"))
    for m in english:
        problem = template_problem(m.id, FIELDS)
        if problem:
            findings.append((english_rel, m.lineno, "format", f"'{m.context}': {problem}"))
    for lang in locales:
        if lang == DEFAULT:
            continue
        rel = CATALOG.as_posix().format(lang=lang)
        if not (root / rel).exists():
            findings.append((rel, 1, "untranslated", f"no catalog for '{lang}': its messages are shown in "
                             f"English; copy {english_rel} and translate every msgstr"))
            continue
        found, problems = _read(root / rel)
        findings += [(rel, line, kind, text) for line, kind, text in problems]
        if found is None:
            continue
        have = {m.context: m for m in found}
        for key, ref in reference.items():
            m = have.get(key)
            if m is None:
                findings.append((rel, 1, "untranslated", f"no entry '{key}' (English: "
                                 f"{english_rel}:{ref.lineno}): shown in English until you add it with its translation"))
                continue
            if not m.string:
                findings.append((rel, m.msgstr_line, "untranslated", f"'{key}' is not translated: shown in English"))
                continue
            if m.fuzzy:
                findings.append((rel, m.lineno, "fuzzy", f"'{key}' is marked fuzzy: check it, "
                                 "then remove the flag"))
            if m.id != ref.id:
                findings.append((rel, m.lineno, "stale", f"'{key}': English now reads "
                                 f"\"{ref.id}\"; update the translation and its msgid"))
            problem = template_problem(m.string, None)
            if problem:
                findings.append((rel, m.msgstr_line, "format", f"'{key}': {problem}; until then it is "
                                 "shown in English"))
            elif template_problem(ref.id, None) is None and placeholders(m.string) != placeholders(ref.id):
                want = ", ".join(sorted(placeholders(ref.id))) or "none"
                got = ", ".join(sorted(placeholders(m.string))) or "none"
                findings.append((rel, m.msgstr_line, "placeholders",
                                 f"'{key}' uses {{{got}}} where English uses {{{want}}}: use English's "
                                 "fields, with the same names (a literal brace is written doubled, {{ or }})"))
        for key, m in have.items():
            if key not in reference:
                findings.append((rel, m.lineno, "orphan", f"'{key}' is not an English key: "
                                 "delete it"))
    return sorted(findings)


def main(argv: list[str] | None = None, needed: Mapping[str, str] | None = None) -> int:
    """The command: ``needed`` are the keys the code uses (:func:`grader.bank.catalog_needs`)."""
    import sys
    wanted = tuple(argv if argv is not None else sys.argv[1:]) or LOCALES
    unknown = [lang for lang in wanted if lang not in LOCALES]
    if unknown:
        print(f"unknown locale {unknown[0]!r}; known: {', '.join(LOCALES)}", file=sys.stderr)
        return 2
    findings = check_catalogs(locales=wanted, needed=needed)
    for path, line, kind, text in findings:
        print(f"{path}:{line}: {kind}: {text}")
    return 1 if any(kind not in WARNINGS for _, _, kind, _ in findings) else 0
