"""Translation checks: what a translator needs to know about a locale, each finding with file and line.

    python -m hooks.translations [LOCALE ...] [--stamp]

Compares every page of a locale folder with its English source: missing and
stale pages, structure (headings and blocks) and numbers that differ from
English, leftover English, export markers, glossary violations, `&` for "and",
the wrong number format; and, in every locale, English included, what would
break a page (malformed blocks, math that cannot render, links to no page) and
exercise data written by hand instead of rendered from the grader's bank. The strict build runs the same checks and fails on
every finding but the informational ones (missing, stale).

A translated page records the English text it translates in its front matter
(`translation_of: <hash>`); `--stamp` writes the current hash once a page is
brought up to date.
"""

from __future__ import annotations

import hashlib
from collections import Counter
import re
import sys
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path

from hooks.blockspec import scan_blocks
from hooks.numbers import FORMATS

SOURCE = "en"
INFO_KINDS = frozenset({"missing", "stale"})

EXPORT_MARKER = re.compile(r"\[(?:BLOCK_TYPE|[A-Z]{2,}_[A-Z_]+)\b[^\]]*\]")
ENGLISH_STOPWORDS = frozenset(
    "the of and is are to with for each this that from into by as on its be it which when than their".split()
)
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.message}"


def relative(path: Path, root: Path) -> str:
    """How a page is named in a finding: relative to the project when it is inside it."""
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


# --- reading a page


def source_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def recorded_hash(text: str) -> str | None:
    m = FRONT_MATTER.match(text)
    if m:
        found = re.search(r"(?m)^translation_of:\s*([0-9a-f]+)\s*$", m.group(1))
        return found.group(1) if found else None
    return None


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of what a reader reads: no front matter, code, block headers, link targets or ids."""
    lines = text.splitlines()
    start = 0
    m = FRONT_MATTER.match(text)
    if m:
        start = m.group(0).count("\n")
    out, fence = [], None
    for number, line in enumerate(lines[start:], start + 1):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fence = None if fence else stripped[:3]
            continue
        if fence or stripped.startswith("///"):
            continue
        line = re.sub(r"`[^`]*`", " ", line)
        line = re.sub(r"\]\([^)]*\)", "]", line)
        line = re.sub(r"<[^>]+>", " ", line)
        out.append((number, line))
    return out


def structure(text: str, path: str) -> list[tuple[int, str]]:
    """The page's skeleton: (line, 'h2' | 'block name:id') in order."""
    items = []
    uses, _ = scan_blocks(text, path)
    by_line = {u.line: u for u in uses}
    fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(("```", "~~~")):
            fence = not fence
        if fence:
            continue
        heading = re.match(r"^(#{1,6}) ", line)
        if heading:
            items.append((number, f"h{len(heading.group(1))}"))
        elif number in by_line:
            use = by_line[number]
            keep = use.argument if use.name in ("exercise", "figure") else ""
            items.append((number, f"{use.name}:{keep}" if keep else use.name))
    return items


def number_pattern(locale: str) -> tuple[str, str, str]:
    """(regex of one number, thousands separators, decimal mark) in the locale's format (hooks.numbers)."""
    decimal, thousands = FORMATS.get(locale, FORMATS[SOURCE])
    if thousands == "\u202f":  # a narrow no-break space; its wider cousins are accepted too
        thousands = "\u202f\u00a0 "
    sep, dec = f"[{re.escape(thousands)}]", re.escape(decimal)
    return rf"\d{{1,3}}(?:{sep}\d{{3}})+(?:{dec}\d+)?|\d+(?:{dec}\d+)?", thousands, decimal


def writes_decimal_comma(locale: str) -> bool:
    return FORMATS.get(locale, FORMATS[SOURCE])[0] == ","


def numbers(lines: list[tuple[int, str]], locale: str, small: bool = False) -> list[tuple[int, Decimal]]:
    """Numbers a reader reads, as values. Integers below 10 are left out unless `small`: one language
    writes them as words where another writes digits."""
    pattern, thousands, decimal = number_pattern(locale)
    found = []
    for number, line in lines:
        line = line.replace("{,}", ",").replace("{.}", ".").replace("\\,", "\u202f")
        line = re.sub(r"\\[A-Za-z]+", " ", line)  # TeX commands
        for m in re.finditer(rf"(?<![A-Za-z0-9_.,]){pattern}(?![A-Za-z0-9_])", line):
            raw = m.group(0)
            for sep in thousands:
                raw = raw.replace(sep, "")
            try:
                value = Decimal(raw.replace(decimal, "."))
            except InvalidOperation:
                continue
            if small or value >= 10 or value != value.to_integral_value():
                found.append((number, value))
    return found


# --- the checks


@lru_cache(maxsize=64)
def english_outline(english: str) -> tuple[list, frozenset, Counter]:
    """What every locale is compared with: the English page's structure, numbers and identifiers."""
    numbers_found = frozenset(n for _, n in numbers(prose_lines(english), SOURCE))
    return structure(english, "en"), numbers_found, Counter(re.findall(r"`([^`]+)`", english))


def check_page(english: str, translated: str, locale: str, path: str, glossary: list[dict]) -> list[Finding]:
    findings: list[Finding] = []

    def add(line: int, kind: str, message: str) -> None:
        findings.append(Finding(path, line, kind, message))

    recorded = recorded_hash(translated)
    if recorded is not None and recorded != source_hash(english):
        add(1, "stale", "the English page changed since this translation: update it, then run with --stamp")

    src, english_numbers, english_identifiers = english_outline(english)
    dst = structure(translated, path)
    for (_, want), (line, got) in zip(src, dst):
        if want != got:
            add(line, "structure", f"found '{got}' where English has '{want}': keep English's headings and blocks, in order")
            break
    else:
        if len(src) != len(dst):
            line = dst[len(src)][0] if len(dst) > len(src) else (dst[-1][0] if dst else 1)
            add(line, "structure", f"{len(dst)} headings and blocks where English has {len(src)}")

    kept = Counter(re.findall(r"`([^`]+)`", translated))
    for identifier, count in english_identifiers.items():
        if kept[identifier] < count:
            add(_first_line(translated, identifier), "identifier",
                f"`{identifier}` appears {count} time(s) in English, {kept[identifier]} here: "
                "identifiers stay verbatim, in backticks")

    lines = prose_lines(translated)
    seen = set()
    for line, value in numbers(lines, locale):
        seen.add(value)
        if value not in english_numbers:
            add(line, "numbers", f"{value} does not appear in the English page: check the figure and its format")
    missing = sorted(english_numbers - seen)
    if missing and not any(f.kind == "numbers" for f in findings):
        add(1, "numbers", f"numbers in English missing here: {', '.join(map(str, missing))}")

    for line, text in lines:
        marker = EXPORT_MARKER.search(text)
        if marker:
            add(line, "marker", f"export marker '{marker.group(0)}' is not text: delete it")
        if re.search(r"\s&\s", text):
            add(line, "punctuation", "'&' used for 'and': write the word")
        if writes_decimal_comma(locale) and re.search(r"(?<![\w.,\\])\d+\.\d{1,2}(?!\d)", text):
            add(line, "number-format", "decimal point in a locale that writes a decimal comma (0,7)")
        if locale != SOURCE and _looks_english(text, locale):
            add(line, "english", "this line is still in English: translate it")
        for term in glossary:
            for avoid in term.get("avoid", []):
                if avoid and avoid in text:
                    add(line, "glossary", f"'{avoid}' for '{term['en']}': this locale writes '{term['use']}'")
    return findings


def _first_line(text: str, needle: str) -> int:
    """The line where a translated identifier most likely sits: where its first word appears, else 1."""
    word = re.split(r"[-_ ]", needle)[0]
    for number, line in enumerate(text.splitlines(), 1):
        if word and word in line:
            return number
    return 1


def _looks_english(text: str, locale: str) -> bool:
    text = re.sub(r"\$[^$]*\$", " ", text)
    words = LATIN_WORD.findall(text)
    stop = sum(word.lower() in ENGLISH_STOPWORDS for word in words)
    if locale in ("ja", "zh", "ko"):
        return bool(re.search(r"[A-Za-z]+(?:[\s,:-]+[A-Za-z]+){3,}", text)) and stop >= 1
    return stop >= 3 and stop >= 0.25 * len(words)


DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
INLINE_MATH = re.compile(r"(?<![\\$])\$([^$\n]+?)\$")
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")


def broken(text: str, path: str, pages: frozenset[str], known_ids: dict | None = None) -> list[Finding]:
    """What would break the page itself: malformed blocks (naming ids outside `known_ids`, when given),
    math that cannot render, links to no page."""
    from hooks.mathml import MathError, tex_to_mathml

    findings = [Finding(path, p.line, "block", p.message) for p in scan_blocks(text, path, known_ids=known_ids)[1]]
    line_of = lambda offset: text.count("\n", 0, offset) + 1  # noqa: E731
    display = [(m.start(), m.group(1), True) for m in DISPLAY_MATH.finditer(text)]
    rest = DISPLAY_MATH.sub(lambda m: " " * len(m.group(0)), text)
    inline = [(m.start(), m.group(1), False) for m in INLINE_MATH.finditer(re.sub(r"`[^`\n]*`", "", rest))]
    for offset, tex, is_display in sorted(display + inline):
        try:
            tex_to_mathml(tex.strip(), is_display)
        except MathError as error:
            findings.append(Finding(path, line_of(offset), "math", str(error)))
    for m in LINK.finditer(text):
        if m.group(1) not in pages:
            findings.append(Finding(path, line_of(m.start()), "link", f"no page '{m.group(1)}' in English or here"))
    return findings


STRUCTURAL = frozenset({Decimal(0), Decimal(1), Decimal(2)})  # "sums to 1", "two lines meet", ...


def bank_values() -> frozenset[Decimal]:
    """Every number in the grader's bank data (through the bank cache: no SymPy import when warm)."""
    from hooks import cache

    def compute():
        from grader import bank
        from hooks.numbers import finite_decimal

        found = set()

        def walk(value):
            if isinstance(value, (tuple, list)) or hasattr(value, "tolist"):
                for item in value:
                    walk(item)
            elif hasattr(value, "values"):
                for item in value.values():
                    walk(item)
            elif finite_decimal(value) is not None:
                found.add(finite_decimal(value))

        for exercise in bank.EXERCISES.values():
            walk(exercise.data)
        return sorted(found)

    return frozenset(Decimal(x) for x in cache.cached("bank-values", [], compute)) - STRUCTURAL


def restated(text: str, path: str, locale: str, bank: frozenset[Decimal]) -> list[Finding]:
    """Numbers of the bank written by hand inside an exercise block: the site renders them from the bank."""
    inside, depth, lines = False, 0, []
    for number, line in prose_lines_with_blocks(text):
        header = re.match(r"^\s{0,3}/{3,}\s*([\w-]*)", line)
        if header:
            if header.group(1):
                depth += 1
                inside = inside or header.group(1) == "exercise"
            else:
                depth -= 1
                inside = inside and depth > 0
            continue
        if inside:
            lines.append((number, line))
    return [
        Finding(path, line, "bank-number",
                f"{value} is exercise data: the site renders it from the grader's bank, write 'the data below'")
        for line, value in numbers(lines, locale, small=True) if value in bank
    ]


def prose_lines_with_blocks(text: str) -> list[tuple[int, str]]:
    """Like `prose_lines`, but keeping the block fences, so blocks can be followed."""
    fences = {n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith("///")}
    kept = dict(prose_lines(text))
    return sorted([*kept.items(), *((n, text.splitlines()[n - 1]) for n in fences)])


def load_glossary(folder: Path) -> list[dict]:
    path = folder / "glossary.toml"
    if not path.exists():
        return []
    with path.open("rb") as handle:
        return tomllib.load(handle).get("term", [])


def check_locale(docs: Path, locale: str, root: Path, known_ids: dict | None = None) -> list[Finding]:
    """Every finding for one locale folder, informational ones included.

    `known_ids` maps a block name to the ids it may take (the bank's exercises, the figures)."""
    english_dir, folder = docs / SOURCE, docs / locale
    glossary = load_glossary(folder)
    pages = frozenset(p.name for d in (english_dir, folder) for p in d.glob("*.md"))
    bank = bank_values()
    findings: list[Finding] = []
    for english_path in sorted(english_dir.glob("*.md")):
        path = folder / english_path.name
        shown = relative(path, root)
        if not path.exists():
            findings.append(Finding(shown, 1, "missing", "not translated yet: readers see the English page with a notice"))
            continue
        text = path.read_text("utf-8")
        findings.extend(broken(text, shown, pages, known_ids))
        findings.extend(restated(text, shown, locale, bank))
        if locale != SOURCE:
            findings.extend(check_page(english_path.read_text("utf-8"), text, locale, shown, glossary))
    for path in sorted(folder.glob("*.md")):
        if not (english_dir / path.name).exists():
            findings.append(Finding(relative(path, root), 1, "orphan", "no English page of this name"))
    return findings


def stamp(docs: Path, locale: str) -> list[Path]:
    """Record the current English hash in every page of `locale`."""
    changed = []
    for path in sorted((docs / locale).glob("*.md")):
        english = docs / SOURCE / path.name
        if not english.exists():
            continue
        text, digest = path.read_text("utf-8"), source_hash(english.read_text("utf-8"))
        if recorded_hash(text) == digest:
            continue
        m = FRONT_MATTER.match(text)
        if m:
            meta = re.sub(r"(?m)^translation_of:.*\n?", "", m.group(1) + "\n").rstrip("\n")
            meta = f"{meta}\ntranslation_of: {digest}" if meta else f"translation_of: {digest}"
            text = f"---\n{meta}\n---\n" + text[m.end():]
        else:
            text = f"---\ntranslation_of: {digest}\n---\n\n" + text
        path.write_text(text, encoding="utf-8")
        changed.append(path)
    return changed


def locales(docs: Path) -> list[str]:
    """Every locale folder, English first: English is checked for what breaks a page, the others against it."""
    found = sorted(p.name for p in docs.iterdir() if p.is_dir() and p.name != SOURCE and (p / "labels.toml").exists())
    return [SOURCE, *found]


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    do_stamp = "--stamp" in args
    args = [a for a in args if a != "--stamp"]
    root = Path.cwd()
    docs = root / "docs"
    known = locales(docs)
    unknown = [a for a in args if a not in known]
    if unknown:
        print(f"unknown locale {', '.join(unknown)}: choose from {', '.join(known)}", file=sys.stderr)
        return 2
    from hooks.site import known_ids

    ids = known_ids()
    problems = 0
    for locale in args or known:
        if do_stamp:
            for path in stamp(docs, locale):
                print(f"stamped {relative(path, root)}")
        findings = check_locale(docs, locale, root, ids)
        for finding in findings:
            print(finding)
        errors = [f for f in findings if f.kind not in INFO_KINDS]
        problems += len(errors)
        print(f"{locale}: {len(errors)} problem(s), {len(findings) - len(errors)} note(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
