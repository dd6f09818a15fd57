"""The site's address (hooks/theme/address.py) and the students' navigation (hooks/theme/navigation.py), in
process: each refusal's whole sentence, the paths that hang on the address, the root 404 page's script."""
from types import SimpleNamespace

import pytest

from hooks.theme import address, navigation

EXAMPLE = "https://<org>.github.io/<repo>/"


@pytest.mark.parametrize("configured, environ, said", [
    ("ftp://x.org/", {}, "site_url: 'ftp://x.org/' in mkdocs.yml: the site's address starts with https:// (or "
     f"http://) and names its host, e.g. {EXAMPLE}"),
    ("https:///c/", {}, "site_url: 'https:///c/' in mkdocs.yml: the site's address starts with https:// (or "
     f"http://) and names its host, e.g. {EXAMPLE}"),
    ("https://x.org/c/#top", {}, "site_url: 'https://x.org/c/#top' in mkdocs.yml: the site's address has no ?query "
     "or #fragment: write https://x.org/c/"),
    ("https://x.org/c", {}, "site_url: 'https://x.org/c' in mkdocs.yml: the site's address is a folder and ends "
     "with '/': write https://x.org/c/"),
    ("", {}, "site_url: '' in mkdocs.yml: the site's address is empty: set site_url in mkdocs.yml, or "
     f"SITE_URL={EXAMPLE} for one build"),
    ("http://x/", {"SITE_URL": "https://h.org/r"}, "SITE_URL='https://h.org/r': the site's address is a folder "
     "and ends with '/': write https://h.org/r/"),
])
def test_a_wrong_address_gets_the_whole_sentence(configured, environ, said):
    with pytest.raises(address.AddressError) as error:
        address.site_address(configured, environ)
    assert str(error.value) == said


@pytest.mark.parametrize("value", ["http://127.0.0.1:8000/", "https://org.github.io/course/", "https://x.org/"])
def test_an_address_that_can_be_used_is_kept_as_written(value):
    assert address.site_address(value, {}) == value
    assert address.site_address("ftp://ignored/", {"SITE_URL": value}) == value


def test_the_paths_under_the_address():
    assert address.base_path("https://x.org") == "/"
    assert address.base_path("https://x.org/") == "/"
    assert address.base_path("https://x.org/r/") == "/r/"
    assert address.locale_home("https://x.org/r/", "/") == "/r/"
    assert address.locale_home("https://x.org/", "/ko/") == "/ko/"
    assert address.locale_home("https://x.org/MIX/", "/fr/") == "/MIX/fr/"    # only the slash is trimmed


def test_the_root_404_page_sends_a_reader_to_the_longest_matching_locale_home_first():
    script = address.locale_choice(["/a/", "/abc/", "/ab/"])
    assert script == ('<script>(function(){var homes=["/abc/", "/ab/", "/a/"],path=location.pathname;'
                      'for(var i=0;i<homes.length;i++){var page=homes[i]+"404.html";if(path.indexOf(homes[i])===0'
                      '&&path!==page){location.replace(page);return;}}})();</script>')
    page = "<html><head><title>t</title></head><body>x</body></html>"
    assert address.with_locale_choice(page, ["/fr/"]) == \
        f"<html><head><title>t</title>{address.locale_choice(['/fr/'])}</head><body>x</body></html>"
    assert address.with_locale_choice(page, []) == page          # one locale: nowhere else to send a reader
    # the script goes before the head's end, not before a later '</head>' that the body's text holds
    quoted = "<html><head></head><body><script>var s='</head>';</script></body></html>"
    assert address.with_locale_choice(quoted, ["/fr/"]) == \
        f"<html><head>{address.locale_choice(['/fr/'])}</head><body><script>var s='</head>';</script></body></html>"


def page(name, meta):
    return SimpleNamespace(title=name, meta=meta, is_page=True, is_section=False, previous_page="old",
                           next_page="old")


def test_only_translate_false_makes_a_staff_page():
    assert navigation.is_staff(page("s", {"translate": False}))
    assert not navigation.is_staff(page("s", {"translate": "false"}))     # a string is not the mark
    assert not navigation.is_staff(page("s", {"translate": True})) and not navigation.is_staff(page("s", {}))


def test_sections_that_hold_only_staff_pages_go_and_the_others_keep_their_students_pages():
    students, staff = page("lesson", {}), page("status", {"translate": False})
    mixed = SimpleNamespace(title="mixed", is_page=False, is_section=True, children=[staff, students])
    only_staff = SimpleNamespace(title="staff", is_page=False, is_section=True, children=[staff])
    link = SimpleNamespace(title="link", is_page=False, is_section=False)
    nav = SimpleNamespace(pages=[students, staff], items=[mixed, only_staff, link])
    navigation.for_students(nav, staff_listed=False)
    assert [item.title for item in nav.items] == ["mixed", "link"] and mixed.children == [students]
    assert (students.previous_page, students.next_page) == (None, None)
    assert (staff.previous_page, staff.next_page) == (None, None)


def test_where_staff_pages_are_listed_the_navigation_keeps_them():
    students, staff = page("lesson", {}), page("status", {"translate": False})
    section = SimpleNamespace(title="staff", is_page=False, is_section=True, children=[staff])
    nav = SimpleNamespace(pages=[students, staff], items=[students, section])
    navigation.for_students(nav, staff_listed=True)
    assert nav.items == [students, section] and section.children == [staff]
    assert (staff.previous_page, staff.next_page) == (None, None)


@pytest.mark.parametrize("staff_listed", [True, False])
def test_the_footer_links_lead_within_one_audience(staff_listed):
    first, status, second, guide = (page("first", {}), page("status", {"translate": False}), page("second", {}),
                                    page("guide", {"translate": False}))
    nav = SimpleNamespace(pages=[first, status, second, guide], items=[first, status, second, guide])
    navigation.for_students(nav, staff_listed=staff_listed)
    assert (first.previous_page, first.next_page, second.previous_page, second.next_page) == (None, second, first, None)
    linked = (None, guide, status, None) if staff_listed else (None, None, None, None)
    assert (status.previous_page, status.next_page, guide.previous_page, guide.next_page) == linked
    assert nav.items == ([first, status, second, guide] if staff_listed else [first, second])
