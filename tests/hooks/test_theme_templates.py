"""The theme's templates are compiled once per process (hooks/theme/templates.py): a second environment of the
same theme takes a template's compiled code, a changed template is compiled again, and what either renders is
what Jinja renders without the cache."""

from __future__ import annotations

import jinja2
from mkdocs.theme import Theme

from hooks.theme import templates


def _compiles(env) -> list[str]:
    """The names of the templates ``env`` compiles from here on."""
    names = []
    compile_source = env.compile

    def counting(source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return compile_source(source, name, filename, raw, defer_init)

    env.compile = counting
    return names


def test_a_template_is_compiled_once_and_again_when_it_changes(tmp_path):
    (tmp_path / "page.html").write_text("{{ title }} · {% for i in range(3) %}{{ i }}{% endfor %}", encoding="utf-8")
    templates.keep_theme()
    templates.keep_theme()        # twice: still one wrapping
    assert Theme.get_env.kept

    first = Theme(name=None, custom_dir=str(tmp_path)).get_env()
    compiled = _compiles(first)
    assert first.get_template("page.html").render(title="A") == "A · 012"
    assert compiled == ["page.html"]

    second = Theme(name=None, custom_dir=str(tmp_path)).get_env()
    compiled = _compiles(second)
    assert second.get_template("page.html").render(title="B") == "B · 012"
    assert compiled == []                       # the first environment's code, not compiled again

    (tmp_path / "page.html").write_text("{{ title }} changed", encoding="utf-8")
    third = Theme(name=None, custom_dir=str(tmp_path)).get_env()
    compiled = _compiles(third)
    assert third.get_template("page.html").render(title="C") == "C changed"
    assert compiled == ["page.html"]            # Jinja's checksum of the source: compiled again

    plain = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)))
    assert plain.get_template("page.html").render(title="C") == "C changed"


def test_the_list_of_files_to_copy_is_made_once_per_theme(tmp_path):
    (tmp_path / "a.css").write_text("a{}", encoding="utf-8")
    templates.keep_theme()
    env = Theme(name=None, custom_dir=str(tmp_path)).get_env()
    keep = lambda name: name.endswith(".css")   # noqa: E731
    assert env.list_templates(filter_func=keep) == ["a.css"]
    (tmp_path / "b.css").write_text("b{}", encoding="utf-8")
    again = Theme(name=None, custom_dir=str(tmp_path)).get_env()
    assert again.list_templates(filter_func=keep) == ["a.css"]   # listed once per process, as MkDocs' build asks
    assert {"a.css", "b.css"} <= set(again.list_templates())   # any other listing is Jinja's own
