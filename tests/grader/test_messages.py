"""Catalogs: every locale has English's messages and placeholders; language detection."""
import re
import shutil
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from grader.languages.audit import CATALOG, WARNINGS, check_catalogs
from grader.languages.messages import LOCALES, catalog, detect_lang, message, placeholders
from grader.languages.po import PoSyntaxError, read

ROOT = Path(__file__).resolve().parents[2]
EN = catalog("en")


def test_every_catalog_is_consistent():
    """The test translators run: no placeholder differing from English, no key English lacks, every key
    the exercises need in English; a message not yet translated is a warning (shown in English)."""
    from grader.bank import catalog_needs
    findings = [f for f in check_catalogs(ROOT, needed=catalog_needs()) if f[2] not in WARNINGS]
    assert findings == [], "\n".join(f"{p}:{n}: {k}: {m}" for p, n, k, m in findings)


@pytest.mark.parametrize("lang", LOCALES)
def test_a_locale_has_no_key_english_lacks(lang):
    assert set(catalog(lang)) <= set(EN)


def test_a_message_english_lacks_is_its_key_and_is_remembered(monkeypatch):
    """An exercise module added before its catalog entries: its words are its keys, nothing crashes."""
    from grader.languages import messages
    from grader.languages.messages import unknown_keys
    monkeypatch.setattr(messages, "_UNKNOWN", set())       # this process's record, for this test only
    assert message("exercise.no-such.title", "fr") == "exercise.no-such.title"
    assert "exercise.no-such.title" in unknown_keys() and "missing" not in unknown_keys()


def test_a_key_an_exercise_needs_that_english_lacks_is_an_error_naming_the_file(tmp_path):
    _copy_catalogs(tmp_path)
    found = check_catalogs(tmp_path, needed={"exercise.vector-angle.title": "grader/exercises/vector_angle.py",
                                             "missing": "grader/judging/outcome.py"})
    assert [f[:3] for f in found if f[2] not in WARNINGS] == [("grader/locale/en/LC_MESSAGES/grader.po", 1, "missing")]
    text = [f[3] for f in found if f[2] == "missing"][0]
    assert "'exercise.vector-angle.title'" in text and "grader/exercises/vector_angle.py" in text
    assert "add it to grader/locale/en/LC_MESSAGES/grader.po" in text


def test_an_untranslated_message_is_a_warning_and_shown_in_english(tmp_path):
    fr = _copy_catalogs(tmp_path)
    _edit(fr, 'msgstr "Pas de réponse."', 'msgstr ""')
    found = [f for f in check_catalogs(tmp_path, locales=("fr",)) if "'missing'" in f[3]]
    assert [f[2] for f in found] == ["untranslated"] and "untranslated" in WARNINGS


@pytest.mark.parametrize("lang", LOCALES)
def test_fast_reader_agrees_with_babel(lang):
    path = ROOT / CATALOG.as_posix().format(lang=lang)
    ours = {(e.context, e.msgid, e.msgstr, e.line, e.fuzzy) for e in read(path.read_text("utf-8"))
            if e.msgid}
    with path.open("rb") as handle:
        babel = {(m.context, m.id, m.string, m.lineno, m.fuzzy) for m in read_po(handle) if m.id}
    assert ours == babel and len(ours) > 130


@pytest.mark.parametrize("lang", LOCALES)
def test_every_message_renders(lang):
    for key in EN:
        text = message(key, lang, **{p: "X" for p in placeholders(EN[key])})
        assert text and not re.search(r"\{[a-z_]+\}", re.sub(r"\$[^$]*\$", "", text))   # TeX has braces


def test_every_key_used_in_code_exists():
    source = "\n".join(p.read_text() for p in (ROOT / "grader").rglob("*.py"))
    used = set(re.findall(r'(?:finding|_fail|message|_error|_refuse)\("([a-z0-9.-]+)"', source))
    assert len(used) > 30
    assert used <= set(EN), used - set(EN)


def test_every_exercise_declares_the_keys_it_uses_and_english_has_them():
    from grader import bank
    for definition in bank.definitions():
        keys = set(definition.catalog_keys())
        assert keys <= set(EN), (definition.id, keys - set(EN))
        source = Path(sys.modules[definition.parts.__module__].__file__).read_text()
        used = set(re.findall(r'\("([a-z0-9]+-[a-z0-9-]+)", [a-z(]', source))   # ("key", value) rows
        used |= set(re.findall(r'finding\("([a-z0-9.-]+)"', source))
        used -= {definition.id, getattr(definition.figure, "id", "")}
        assert used and used <= keys, (definition.id, used - keys)   # found some, and each one declared


def test_nested_message_reference():
    text = message("point-outside-region", "fr", point="(0, 1, 0)",
                   constraint="key:constraint-floor", symbol="H", bound="1/2")
    assert "le plancher H >= 1/2" in text


def _copy_catalogs(tmp_path):
    shutil.copytree(ROOT / "grader" / "locale", tmp_path / "grader" / "locale")
    return tmp_path / CATALOG.as_posix().format(lang="fr")


def _edit(path, old, new):
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def _line_of(path, needle):
    return next(n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if needle in line)


FR = "grader/locale/fr/LC_MESSAGES/grader.po"


@pytest.mark.parametrize("old, new, kind, needle, written", [
    ('msgstr "Pas de réponse."', 'msgstr ""', "untranslated", 'msgid "Not answered."', True),
    ("donnez au moins {digits} chiffres", "donnez au moins {chiffres} chiffres", "placeholders",
     'msgid "Your decimal is close', True),
    ("donnez au moins {digits} chiffres", "donnez au moins {digits chiffres", "format",
     'msgid "Your decimal is close', True),
    ('msgctxt "missing"\n', '#, fuzzy\nmsgctxt "missing"\n', "fuzzy", 'msgid "Not answered."', False),
    ('msgid "Not answered."', 'msgid "Nothing answered."', "stale", 'msgid "Nothing answered."', False),
    ('msgctxt "missing"', 'msgctxt "missing-typo"', "orphan", 'msgid "Not answered."', False),
])
def test_check_catalogs_names_file_line_and_kind(tmp_path, old, new, kind, needle, written):
    """A finding about the translation points at its msgstr, the line the translator edited (a continued msgid
    in between); the others at the entry's msgid."""
    fr = _copy_catalogs(tmp_path)
    _edit(fr, old, new)
    line = _line_of(fr, needle)
    if written:
        lines = fr.read_text("utf-8").splitlines()
        line = next(n for n in range(line, len(lines) + 1) if lines[n - 1].startswith("msgstr"))
        assert line > _line_of(fr, needle)
    found = [f for f in check_catalogs(tmp_path) if f[2] == kind and f[0] == FR and f[1] > 1]
    assert found and found[0][:2] == (FR, line), found


def test_check_catalogs_reports_an_absent_entry_and_file(tmp_path):
    fr = _copy_catalogs(tmp_path)
    _edit(fr, 'msgctxt "missing"', 'msgctxt "renamed"')
    found = check_catalogs(tmp_path)
    assert (FR, 1, "untranslated") in {f[:3] for f in found}
    assert any("'missing'" in f[3] and "grader/locale/en/LC_MESSAGES/grader.po:" in f[3] for f in found)
    fr.unlink()
    assert (FR, 1, "untranslated") in {f[:3] for f in check_catalogs(tmp_path)}


def test_check_catalogs_reports_a_broken_file(tmp_path):
    fr = _copy_catalogs(tmp_path)
    _edit(fr, 'msgstr "Pas de réponse."', 'msgstr "Pas de réponse.')
    assert [f[:3] for f in check_catalogs(tmp_path) if f[2] not in WARNINGS] == [
        (FR, _line_of(fr, "Pas de réponse."), "syntax")]


def test_translators_command(tmp_path):
    import subprocess
    import sys
    ok = subprocess.run([sys.executable, "-m", "grader.languages", "fr"], capture_output=True,
                        text=True, cwd=ROOT)
    assert ok.returncode == 0
    assert all(": untranslated: " in line for line in ok.stdout.splitlines()), ok.stdout
    bad = subprocess.run([sys.executable, "-m", "grader.languages", "xx"], capture_output=True,
                         text=True, cwd=ROOT)
    assert bad.returncode == 2 and "unknown locale 'xx'" in bad.stderr


@pytest.mark.parametrize("text, line", [
    ('msgid "a"\nmsgstr "b\n', 2),
    ('msgid "a"\nmsgid "b"\nmsgstr ""\n', 2),
    ('msgid "a"\n\nmsgstr "b"\n', 1),
    ('msgid "a"\nmsgstr "b"\nnonsense\n', 3),
])
def test_fast_reader_errors_name_the_line(text, line):
    with pytest.raises(PoSyntaxError) as info:
        read(text)
    assert info.value.line == line


def test_fast_reader_continuations_and_escapes():
    entries = read('#, fuzzy\nmsgctxt "k"\nmsgid ""\n"a \\"b\\"\\n"\n"c"\nmsgstr "x\\\\y"\n')
    assert entries == [type(entries[0])("k", 'a "b"\nc', "x\\y", 3, True, 6)]


@pytest.mark.parametrize("option, env, expected", [
    ("ko", {"GRADER_LANG": "fr", "LANG": "ja_JP.UTF-8"}, "ko"),
    (None, {"GRADER_LANG": "fr", "LANG": "ja_JP.UTF-8"}, "fr"),
    (None, {"LANG": "ja_JP.UTF-8"}, "ja"),
    (None, {"LC_ALL": "zh_CN.UTF-8", "LANG": "fr_FR.UTF-8"}, "zh"),
    (None, {"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "fr_FR.UTF-8"}, "ko"),
    (None, {"LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"}, "fr"),
    (None, {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "id_ID"}, "id"),
    (None, {"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"),          # first non-empty wins
    (None, {"LC_ALL": "de_DE.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),  # ... even without a catalog
    (None, {"LANG": "POSIX"}, "en"),
    (None, {"LANG": "fr_CA.UTF-8@euro"}, "fr"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {}, "en"),
    ("zh-CN", {}, "zh"),
])
def test_detect_lang(option, env, expected):
    assert detect_lang(option, env) == expected


@pytest.mark.parametrize("option, env, where", [
    ("xx", {}, "--lang"),
    (None, {"GRADER_LANG": "klingon"}, "GRADER_LANG"),
])
def test_unknown_lang_by_name_is_an_error(option, env, where):
    with pytest.raises(ValueError, match=f"unknown language .* in {where}"):
        detect_lang(option, env)


@pytest.mark.parametrize("catalog_text", [
    'msgctxt "missing"\nmsgid "Not answered."\nmsgstr "Pas de\n',                  # unreadable
    '#, fuzzy\nmsgctxt "missing"\nmsgid "Not answered."\nmsgstr "Pas de réponse."\n',  # fuzzy
    'msgctxt "missing"\nmsgid "Not answered."\nmsgstr ""\n',                        # empty
])
def test_a_translation_that_cannot_be_used_falls_back_to_english(tmp_path, monkeypatch, catalog_text):
    import grader.languages.messages as messages
    fr = tmp_path / "grader.po"
    fr.write_text(catalog_text, "utf-8")
    real = messages.catalog_path
    monkeypatch.setattr(messages, "catalog_path", lambda lang: str(fr) if lang == "fr" else real(lang))
    messages.catalog.cache_clear()
    try:
        assert message("missing", "fr") == "Not answered."
    finally:
        messages.catalog.cache_clear()


EN_FILE = "grader/locale/en/LC_MESSAGES/grader.po"


@pytest.mark.parametrize("old, new, problem", [
    ("{digits} chiffres", "{digits chiffres", "do not parse"),
    ("{digits} chiffres", "{digits}} chiffres", "do not parse"),
    ("{digits} chiffres", "{0} chiffres", "not a field's name"),
    ("{digits} chiffres", "{} chiffres", "not a field's name"),
    ("{digits} chiffres", "{digits.real} chiffres", "not a field's name"),
])
def test_a_translation_whose_braces_are_broken_is_an_error_with_its_key_and_the_fix(tmp_path, old, new, problem):
    fr = _copy_catalogs(tmp_path)
    _edit(fr, "donnez au moins " + old, "donnez au moins " + new)
    found = [f for f in check_catalogs(tmp_path) if f[2] not in WARNINGS]
    assert [f[:3] for f in found] == [(FR, _line_of(fr, "donnez au moins"), "format")], found
    assert found[0][3].startswith("'decimal-imprecise': ") and problem in found[0][3]
    assert "doubled" in found[0][3] and "shown in English" in found[0][3]


def test_tex_braces_in_an_english_prompt_are_an_error_naming_key_and_file(tmp_path):
    """`$\\operatorname{softmax}$` would be a field the grader does not fill in: shown as '?'."""
    _copy_catalogs(tmp_path)
    english = tmp_path / EN_FILE
    _edit(english, r"\\operatorname{{softmax}}", r"\\operatorname{softmax}")
    found = [f for f in check_catalogs(tmp_path, locales=("en",)) if f[2] not in WARNINGS]
    assert [f[:3] for f in found] == [(EN_FILE, _line_of(english, r"\\operatorname{softmax}"), "format")]
    assert found[0][3].startswith("'part.attention-weights.weights.prompt': {softmax} is not a field")
    assert r"$\operatorname{{softmax}}$" in found[0][3]


def test_a_translation_using_a_field_english_lacks_is_shown_in_english(tmp_path, monkeypatch, capsys):
    from grader.languages import messages
    fr = _copy_catalogs(tmp_path)
    _edit(fr, "donnez au moins {digits} chiffres", "donnez au moins {chiffres} chiffres")
    monkeypatch.setattr(messages, "LOCALE_DIR", str(tmp_path / "grader" / "locale"))
    messages.catalog.cache_clear()
    try:
        first = message("decimal-imprecise", "fr")
        again = message("decimal-imprecise", "fr")
    finally:
        messages.catalog.cache_clear()
    assert first == again and first.startswith("Your decimal is close") and "0,5\u00a0%" in first
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and "'decimal-imprecise'" in said[0] and "{chiffres}" in said[0] and str(fr) in said[0]
