"""The bank cache answers from disk until a source that shapes the output changes."""

from hooks import cache


def test_computes_once_per_fingerprint_and_key(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return ["<svg/>", len(calls)]

    monkeypatch.setattr(cache, "fingerprint", lambda: "bank-v1")
    assert cache.cached("figure", ["reachable-region", "fr"], compute) == ["<svg/>", 1]
    assert cache.cached("figure", ["reachable-region", "fr"], compute) == ["<svg/>", 1]
    assert cache.cached("figure", ["reachable-region", "ja"], compute) == ["<svg/>", 2]
    monkeypatch.setattr(cache, "fingerprint", lambda: "bank-v2")  # the bank's data changed
    assert cache.cached("figure", ["reachable-region", "fr"], compute) == ["<svg/>", 3]


def test_fingerprint_covers_the_bank_and_the_renderers():
    sources = {p.relative_to(cache.ROOT).as_posix() for pattern in cache.SOURCES for p in cache.ROOT.glob(pattern)}
    assert {"grader/bank.py", "grader/model/geometry.py", "grader/exercises/attention_weights.py", "grader/model/drawing.py",
            "hooks/render.py"} <= sources


def test_cached_checks_see_every_edit(tmp_path, monkeypatch):
    import shutil

    from hooks import build

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
               "hooks/render.py": "SOLUTIONS = True\n"}
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
