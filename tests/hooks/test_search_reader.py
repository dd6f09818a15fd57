"""What the search index reads (hooks/site/search.py), exactly: which elements are emptied, which are left
as written, and the reader's wrapping, once per index, that gives it the emptied page and puts it back."""
from types import SimpleNamespace

import pytest

from hooks.site import search


@pytest.mark.parametrize("html, read", [
    ('<p data-search-exclude>x</p>', '<p data-search-exclude></p>'),
    ('<span data-search-exclude="1">x<span/>y</span>z', '<span data-search-exclude="1"></span>z'),  # <span/> closes
    ('<figure id="f" data-search-exclude><svg/></figure><aside data-search-exclude>a</aside>',
     '<figure id="f" data-search-exclude></figure><aside data-search-exclude></aside>'),
    ('<section data-search-exclude><section>a</section>b</section>c', '<section data-search-exclude></section>c'),
    ('<div data-search-exclude><h3>h</h3></div>', '<div data-search-exclude><h3>h</h3></div>'),   # a heading inside
    ('<div data-search-exclude><div>open', '<div data-search-exclude><div>open'),               # no end: as it is
    ('<div data-search-exclude>a</div><p>b</p><p data-search-exclude>c</p>d',
     '<div data-search-exclude></div><p>b</p><p data-search-exclude></p>d'),                      # each of them
    ('<table data-search-exclude><tr><td>x</td></tr></table>', '<table data-search-exclude><tr><td>x</td></tr></table>'),
    ('<pre data-search-exclude>x</pre>', '<pre data-search-exclude>x</pre>'),                    # not a skipped tag
    ('<p class="data-search-excluded">x</p>', '<p class="data-search-excluded">x</p>'),
    ('<pre>a</pre><divx data-search-exclude>b</divx>', '<pre>a</pre><divx data-search-exclude>b</divx>'),
])
def test_which_elements_are_emptied(html, read):
    assert search.searchable(html) == read


def test_an_elements_end_is_found_past_nested_ones_of_its_tag():
    html = '<div><div></div><div/><divide></divide></div>after'
    assert search._end(html, "div", len("<div>")) == len(html) - len("after")
    assert search._end("<div>", "div", 0) is None


class Index:
    def __init__(self):
        self.read = []

    def add_entry_from_context(self, page):
        self.read.append(page.content)


def config_with(index):
    return SimpleNamespace(plugins={"material/search": SimpleNamespace(search_index=index)})


def test_the_index_reads_the_emptied_page_and_the_page_is_given_back():
    index = Index()
    config = config_with(index)
    search.keep_out_skipped(config)
    search.keep_out_skipped(config)          # once per index: a second call wraps nothing
    page = SimpleNamespace(content='<p data-search-exclude>x</p><p>y</p>')
    index.add_entry_from_context(page)
    assert index.read == ['<p data-search-exclude></p><p>y</p>']
    assert page.content == '<p data-search-exclude>x</p><p>y</p>'
    empty = SimpleNamespace(content=None)
    index.add_entry_from_context(empty)
    assert index.read[-1] == "" and empty.content is None


def test_the_page_is_given_back_when_the_reader_fails():
    class Failing:
        def add_entry_from_context(self, page):
            raise RuntimeError("reader")
    index = Failing()
    search.keep_out_skipped(config_with(index))
    page = SimpleNamespace(content='<p data-search-exclude>x</p>')
    with pytest.raises(RuntimeError):
        index.add_entry_from_context(page)
    assert page.content == '<p data-search-exclude>x</p>'


def test_no_search_plugin_or_no_index_yet_wraps_nothing():
    search.keep_out_skipped(SimpleNamespace(plugins={}))
    search.keep_out_skipped(config_with(None))
    calls = []
    index = Index()
    search.wrap_reader(config_with(index), "mark", lambda read, idx: calls.append((read, idx)) or read)
    search.wrap_reader(config_with(index), "mark", lambda read, idx: calls.append((read, idx)) or read)
    assert len(calls) == 1 and calls[0][1] is index and index.mark is True
