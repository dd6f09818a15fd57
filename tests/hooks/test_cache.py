"""The bank cache answers from disk until a source that shapes the output changes."""

from pathlib import Path

import pytest

from hooks.chapters import cache


def test_computes_once_per_fingerprint_and_key(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return ["<svg/>", len(calls)]

    monkeypatch.setattr(cache, "fingerprint", lambda locale=None: "bank-v1")
    assert cache.cached("figure", ["reachable-region", "fr"], compute) == ["<svg/>", 1]
    assert cache.cached("figure", ["reachable-region", "fr"], compute) == ["<svg/>", 1]
    assert cache.cached("figure", ["reachable-region", "ja"], compute) == ["<svg/>", 2]
    monkeypatch.setattr(cache, "fingerprint", lambda locale=None: "bank-v2")  # the bank's data changed
    assert cache.cached("figure", ["reachable-region", "fr"], compute) == ["<svg/>", 3]


def test_fingerprint_covers_the_bank_and_the_renderers():
    sources = {p.relative_to(cache.ROOT).as_posix() for pattern in cache.SOURCES for p in cache.ROOT.glob(pattern)}
    assert {"grader/bank.py", "grader/model/geometry.py", "grader/exercises/attention_weights.py", "grader/model/drawing.py",
            "hooks/chapters/render.py"} <= sources


def test_cached_checks_see_every_edit(tmp_path, monkeypatch):
    import shutil

    from hooks.site import build

    monkeypatch.setattr(cache, "FOLDER", tmp_path / "cache")
    docs = tmp_path / "docs"
    for locale in ("en", "fr"):
        (docs / locale).mkdir(parents=True)
        for name in ("labels.toml", "glossary.toml"):
            shutil.copy(cache.ROOT / "docs" / locale / name, docs / locale / name)
        shutil.copy(cache.ROOT / "docs" / locale / "04-simplex-walk.md", docs / locale / "04-simplex-walk.md")
    assert build.check_translations(docs, tmp_path)[1] == []
    page = docs / "fr" / "04-simplex-walk.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nLe plancher & le plafond.\n", encoding="utf-8")
    problems = build.check_translations(docs, tmp_path)[1]
    assert [p.kind for p in problems] == ["punctuation"]


def test_the_fingerprint_follows_every_source_s_contents(tmp_path, monkeypatch):
    """An edit that keeps every name and length (a digit changed in a reference) still changes the key."""
    monkeypatch.setattr(cache, "ROOT", tmp_path)
    sources = {"grader/exercises/demo.py": "ANSWER = 3\n", "grader/locale/fr/LC_MESSAGES/grader.po": "msgstr \"a\"\n",
               "hooks/chapters/render.py": "SOLUTIONS = True\n"}
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    first = cache.fingerprint.__wrapped__()
    assert cache.fingerprint.__wrapped__() == first
    for name, text in sources.items():
        edited = text.replace("3", "4").replace("a", "b").replace("True", "Fals")
        (tmp_path / name).write_text(edited, encoding="utf-8")
        assert cache.fingerprint.__wrapped__() != first, f"an edit of {name} left the fingerprint as it was"
        (tmp_path / name).write_text(text, encoding="utf-8")


def test_a_locale_s_fingerprint_follows_its_catalog_and_english_never_another_s(tmp_path, monkeypatch):
    """A French catalog saved in the preview renders French exercises again, never English or Japanese ones."""
    monkeypatch.setattr(cache, "ROOT", tmp_path)
    for locale in ("en", "fr", "ja"):
        path = tmp_path / "grader" / "locale" / locale / "LC_MESSAGES" / "grader.po"
        path.parent.mkdir(parents=True)
        path.write_text(f'msgstr "{locale}"\n', encoding="utf-8")
    (tmp_path / "grader" / "bank.py").write_text("BANK = 1\n", encoding="utf-8")
    before = {locale: cache.fingerprint.__wrapped__(locale) for locale in ("en", "fr", "ja", None)}
    changed = {}
    for edited in ("fr", "en", "bank"):
        path = (tmp_path / "grader" / "bank.py" if edited == "bank" else
                tmp_path / "grader" / "locale" / edited / "LC_MESSAGES" / "grader.po")
        path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        changed[edited] = {locale for locale, stamp in before.items() if cache.fingerprint.__wrapped__(locale) != stamp}
        before = {locale: cache.fingerprint.__wrapped__(locale) for locale in before}
    assert changed == {"fr": {"fr", None}, "en": {"en", "fr", "ja", None}, "bank": {"en", "fr", "ja", None}}


REFRESH = """
import shutil, sys
from pathlib import Path
from pathlib import Path

import pytest

from hooks.chapters import cache
from grader import bank
from grader.languages.messages import message
fixture, root = Path(sys.argv[1]), Path(sys.argv[2])
module = root / "grader" / "exercises" / "dot_product.py"
assert cache.refresh() is False                           # the first build only takes note
print(list(bank.EXERCISES)[-1], cache.refresh())
shutil.copy(fixture / "dot_product.py", module)
catalog = root / "grader" / "locale" / "en" / "LC_MESSAGES" / "grader.po"
catalog.write_text(catalog.read_text() + (fixture / "catalogs" / "en.po").read_text())
print(cache.refresh(), list(bank.EXERCISES)[-1], message("exercise.dot-product.title"), bank.get("dot-product").data["v"].T)
module.write_text(module.read_text().replace('"v": _vec(4, -1, 2)', '"v": _vec(4, -1, 7)') + "\\n")
print(cache.refresh(), bank.get("dot-product").data["v"].T, bank.get("dot-product").part("dot").reference)
module.unlink()
print(cache.refresh(), list(bank.EXERCISES)[-1])
"""


def test_a_new_changed_or_removed_exercise_module_is_read_again_in_the_same_process(tmp_path):
    """What `mkdocs serve` needs between two builds (hooks.chapters.cache.refresh), in a copy of the grader and the hooks."""
    import os
    import shutil
    import subprocess
    import sys

    root = cache.ROOT
    for folder in ("grader", "hooks"):
        shutil.copytree(root / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "GRADER_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", REFRESH, str(root / "tests" / "fixtures" / "new_exercise"), str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    last = list(__import__("grader.bank", fromlist=["EXERCISES"]).EXERCISES)[-1]
    assert proc.stdout.splitlines() == [
        f"{last} False",                                               # nothing changed: nothing forgotten
        "True dot-product The dot product Matrix([[4, -1, 2]])",      # a new module and its catalog entries
        "True Matrix([[4, -1, 7]]) 23",                                # the module changed: 4 - 2 + 21
        f"True {last}",                                                # removed
    ]


def test_a_page_saved_checks_its_locale_again_and_an_english_page_every_locale(tmp_path, monkeypatch):
    """`mkdocs serve` after a save: the findings of the locales whose inputs did not change come from the disk
    cache; they are the same findings."""
    import shutil

    from hooks.site import build

    monkeypatch.setattr(cache, "FOLDER", tmp_path / "cache")
    docs = tmp_path / "docs"
    for locale in ("en", "fr", "ja"):
        (docs / locale).mkdir(parents=True)
        for name in ("labels.toml", "glossary.toml", "04-simplex-walk.md"):
            shutil.copy(cache.ROOT / "docs" / locale / name, docs / locale / name)
    from hooks.translations.pagechecks import known_ids

    checked, check = [], build.translations.check_locale
    whole = lambda: check(docs, "fr", tmp_path, known_ids())   # noqa: E731  (what `make translations` finds)
    monkeypatch.setattr(build.translations, "check_locale",
                        lambda docs, locale, root, ids, halves: checked.append((locale, *halves)) or
                        check(docs, locale, root, ids, halves))
    first = build.check_translations(docs, tmp_path)
    assert sorted(checked) == [(locale, half) for locale in ("en", "fr", "ja") for half in ("pages", "words")]
    assert first[0]["fr"] == whole()   # the halves together: the whole check's
    checked.clear()
    page = docs / "fr" / "04-simplex-walk.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nLe plancher & le plafond.\n", encoding="utf-8")
    findings, problems = build.check_translations(docs, tmp_path)
    assert checked == [("fr", "pages")] and findings["ja"] == first[0]["ja"] and findings["en"] == first[0]["en"]
    assert [p.kind for p in problems] == ["punctuation"] and findings["fr"] == whole()
    checked.clear()
    english = docs / "en" / "04-simplex-walk.md"
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    build.check_translations(docs, tmp_path)
    assert sorted(checked) == [("en", "pages"), ("fr", "pages"), ("ja", "pages")]
    checked.clear()
    labels = docs / "fr" / "labels.toml"
    labels.write_text(labels.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    build.check_translations(docs, tmp_path)
    assert sorted(checked) == [("fr", "pages"), ("fr", "words")]
    checked.clear()
    saved = page.read_bytes()
    page.write_bytes(saved.decode("utf-8").encode("latin-1", "replace"))   # saved in Latin-1
    findings, problems = build.check_translations(docs, tmp_path)
    assert [f.kind for f in findings["fr"]] == ["file"] and checked == [("fr", "pages")]   # the slip alone
    page.write_bytes(saved)
    build.check_translations(docs, tmp_path)
    checked.clear()
    assert build.check_translations(docs, tmp_path, only=("fr",))[0].keys() == {"en", "fr"} and checked == []


WORDS_ONLY = """
import sys
from pathlib import Path
import sympy
from pathlib import Path

import pytest

from hooks.chapters import cache
from grader.languages.messages import message
from grader.model import tex
root = Path(sys.argv[1])
catalog = root / "grader" / "locale" / "fr" / "LC_MESSAGES" / "grader.po"
assert cache.refresh() is False
tex.simplest(sympy.sqrt(8) / 2)
title = message("exercise.terrain-warmup.title", lang="fr")
catalog.write_text(catalog.read_text().replace(f'msgstr "{title}"', f'msgstr "{title} (bis)"', 1))
print(cache.refresh(), tex.simplest.cache_info().currsize, message("exercise.terrain-warmup.title", lang="fr").endswith("(bis)"))
(root / "grader" / "model" / "tex.py").write_text((root / "grader" / "model" / "tex.py").read_text() + "\\n")
print(cache.refresh(), tex.simplest.cache_info().currsize)
"""


def test_a_catalogs_save_keeps_what_no_words_reach_and_forgets_the_words(tmp_path):
    """The preview after a catalog's save: the messages are read again; a pure function of values marked
    ``catalog_free`` (a simplified answer) keeps what it made; a module's save forgets it too."""
    import os
    import shutil
    import subprocess
    import sys

    for folder in ("grader", "hooks"):
        shutil.copytree(cache.ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "GRADER_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", WORDS_ONLY, str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["True 1 True", "True 0"]


def test_a_result_with_its_own_sources_is_computed_again_when_one_of_them_changes(tmp_path, monkeypatch):
    """`sources` replace the bank's: an edit of one of them computes again; the bank's fingerprint is not read."""
    monkeypatch.setattr(cache, "FOLDER", tmp_path / "cache" / "bank")     # made with its parents
    monkeypatch.setattr(cache, "fingerprint", lambda locale=None: pytest.fail("the bank's fingerprint was read"))
    source = tmp_path / "glossary.toml"
    source.write_text("a = 1\n", encoding="utf-8")
    calls = []

    def compute():
        calls.append(1)
        return {"findings": len(calls), "word": "élève"}

    assert cache.cached("checks", {"locale": "fr", "page": Path("a.md")}, compute, [source]) == {"findings": 1, "word": "élève"}
    assert cache.cached("checks", {"page": Path("a.md"), "locale": "fr"}, compute, [source])["findings"] == 1   # the same key
    stored = list((tmp_path / "cache" / "bank").iterdir())
    assert [path.name.split("-")[0] for path in stored] == ["checks"] and len(stored[0].stem.split("-")[1]) == 24
    assert "élève" in stored[0].read_text(encoding="utf-8")      # stored as written, readable
    source.write_text("a = 2\n", encoding="utf-8")
    assert cache.cached("checks", {"locale": "fr", "page": Path("a.md")}, compute, [source])["findings"] == 2
    (tmp_path / "fr").mkdir()
    elsewhere = tmp_path / "fr" / "glossary.toml"              # another file, the same name and text
    elsewhere.write_text("a = 2\n", encoding="utf-8")
    assert cache.cached("checks", {"locale": "fr", "page": Path("a.md")}, compute, [elsewhere])["findings"] == 3


def test_a_result_in_a_locale_follows_that_locale_s_fingerprint(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    stamps = {None: "all-1", "fr": "fr-1"}
    monkeypatch.setattr(cache, "fingerprint", lambda locale=None: stamps[locale])
    calls = []
    compute = lambda: calls.append(1) or len(calls)   # noqa: E731
    assert cache.cached("exercise", "e1", compute, locale="fr") == 1
    stamps[None] = "all-2"                                     # another locale's catalog
    assert cache.cached("exercise", "e1", compute, locale="fr") == 1
    stamps["fr"] = "fr-2"
    assert cache.cached("exercise", "e1", compute, locale="fr") == 2


def test_the_code_a_result_no_words_reach_depends_on_is_the_sources_but_the_catalogs():
    code = {path.relative_to(cache.ROOT).as_posix() for path in cache.code()}
    assert {"grader/bank.py", "hooks/chapters/render.py", "hooks/chapters/mathml.py"} <= code
    assert not any(name.endswith(".po") for name in code)



DEMO = "import functools\nSTAMP = object()\n\n\n@functools.lru_cache\ndef words():\n    return STAMP\n"


def test_refresh_reloads_what_changed_forgets_what_went_and_clears_the_caches(tmp_path, monkeypatch):
    """refresh() in process, on a grader folder of its own: an exercise module saved is reloaded, one removed
    forgotten; the caches of grader's and hooks' modules are cleared, but after a catalog's save alone those
    marked ``catalog_free``; nothing happens when only a file refresh does not watch changed."""
    import functools
    import importlib.util
    import os
    import sys
    import types

    import grader.exercises

    monkeypatch.setattr(cache, "ROOT", tmp_path)
    monkeypatch.setattr(cache, "_SEEN", {})
    exercises = tmp_path / "grader" / "exercises"
    (exercises / "__pycache__").mkdir(parents=True)
    monkeypatch.setattr(grader.exercises, "__path__", [str(exercises), *grader.exercises.__path__])
    catalog = tmp_path / "grader" / "locale" / "fr" / "LC_MESSAGES" / "grader.po"
    catalog.parent.mkdir(parents=True)
    catalog.write_text('msgstr "a"\n', encoding="utf-8")
    (tmp_path / "hooks" / "chapters").mkdir(parents=True)
    render = tmp_path / "hooks" / "chapters" / "render.py"
    render.write_text("X = 1\n", encoding="utf-8")
    stale = exercises / "__pycache__" / "stale.py"
    stale.write_text("X = 1\n", encoding="utf-8")
    demo = {}
    for name in ("zz_kept", "zz_saved", "zz_removed"):
        (exercises / f"{name}.py").write_text(DEMO, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"grader.exercises.{name}", exercises / f"{name}.py")
        demo[name] = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, spec.name, demo[name])
        spec.loader.exec_module(demo[name])
    monkeypatch.setitem(sys.modules, "grader.exercises.zz_no_file", types.ModuleType("grader.exercises.zz_no_file"))
    caches = {}
    for name, catalog_free in (("hooks.zz_words", False), ("hooks.zz_values", True), ("grader.zz_words", False),
                               ("zz_elsewhere", False)):
        module = types.ModuleType(name)
        module.cached = functools.lru_cache(lambda: object())
        if catalog_free:                                     # the others never say it
            module.cached.catalog_free = True
        module.clear_only = types.SimpleNamespace(cache_clear=lambda: pytest.fail("not a functools cache, cleared"))
        monkeypatch.setitem(sys.modules, name, module)
        caches[name] = module.cached

    def sizes(fill: bool = False) -> dict[str, int]:
        for function in caches.values() if fill else ():
            function()
        return {name: function.cache_info().currsize for name, function in caches.items()}

    stamps = {name: module.STAMP for name, module in demo.items()}
    sizes(fill=True)
    assert cache.refresh() is False                          # the first build only takes note
    assert cache.refresh() is False and sizes() == dict.fromkeys(caches, 1)
    for path in (render, stale):                             # not the grader's modules or catalogs
        path.write_text("X = 22\n", encoding="utf-8")
        assert cache.refresh() is False
    catalog.write_text('msgstr "b"\n', encoding="utf-8")     # a catalog alone: the words are forgotten
    assert cache.refresh() is True
    assert sizes() == {"hooks.zz_words": 0, "hooks.zz_values": 1, "grader.zz_words": 0, "zz_elsewhere": 1}
    sizes(fill=True)
    saved = exercises / "zz_saved.py"
    before = saved.stat()
    saved.write_text(DEMO, encoding="utf-8")                  # the same size, a later time
    os.utime(saved, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))
    catalog.write_text('msgstr "c"\n', encoding="utf-8")     # with a module: every cache of grader and hooks
    assert cache.refresh() is True
    assert demo["zz_saved"].STAMP is not stamps["zz_saved"] and demo["zz_kept"].STAMP is stamps["zz_kept"]
    assert sizes() == {"hooks.zz_words": 0, "hooks.zz_values": 0, "grader.zz_words": 0, "zz_elsewhere": 1}
    mtime = catalog.stat().st_mtime_ns
    catalog.write_text('msgstr "longer"\n', encoding="utf-8")   # a new size, the same time
    os.utime(catalog, ns=(mtime, mtime))
    assert cache.refresh() is True
    (exercises / "zz_removed.py").unlink()
    assert cache.refresh() is True
    assert "grader.exercises.zz_removed" not in sys.modules and "grader.exercises.zz_kept" in sys.modules
