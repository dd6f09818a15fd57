"""The students' navigation: the pages for the course's staff out of their way.

A page for the staff (*Translation status*, *For translators*: `translate: false` in its front matter, the
mark hooks/course.py reads to build it in English only) is listed in the default locale's navigation only,
in the section mkdocs.yml gives it at the end; every other locale still builds it (its links keep working)
but leaves it out of its navigation. The footer's previous and next links lead from a student's page to
another student's page only, and from a staff page to a staff page where the staff pages are listed.

Called once per locale build, when every page has been read (MkDocs's on_env) and before any is written.
"""

from __future__ import annotations


def is_staff(page) -> bool:
    return page.meta.get("translate") is False


def for_students(nav, staff_listed: bool) -> None:
    """The locale's navigation (a MkDocs Navigation) with its staff pages listed or not, and its footer links
    each within one audience."""
    students = [page for page in nav.pages if not is_staff(page)]
    staff = [page for page in nav.pages if is_staff(page)]
    _link_in_order(students)
    if staff_listed:
        _link_in_order(staff)
        return
    for page in staff:
        page.previous_page = page.next_page = None
    nav.items = _without_staff(nav.items)


def _link_in_order(pages: list) -> None:
    for before, after in zip([None, *pages], [*pages, None]):
        if before is not None:
            before.next_page = after
        if after is not None:
            after.previous_page = before


def _without_staff(items: list) -> list:
    """The navigation's items without staff pages, and without the sections that held only them."""
    kept = []
    for item in items:
        if item.is_page and is_staff(item):       # every MkDocs nav item (StructureItem) has is_page, is_section
            continue
        if item.is_section:
            item.children = _without_staff(item.children)
            if not item.children:
                continue
        kept.append(item)
    return kept
