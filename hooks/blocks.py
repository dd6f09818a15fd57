"""The course's block types as pymdown-extensions Blocks, built from `blockspec.SPECS`.

Each block reads what it needs for the page being rendered (its language,
labels, the exercise and figure renderers) from one `PageContext` that the
hook updates before every page.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from typing import Callable

from markdown.util import AtomicString
from pymdownx.blocks import BlocksExtension
from pymdownx.blocks.block import Block

from hooks.blockspec import SPECS, BlockSpec


@dataclass
class PageContext:
    """What blocks need to know about the page being rendered."""

    lang: str = "en"
    labels: dict = field(default_factory=dict)
    render_exercise: Callable[[str, str], tuple[str, str]] = lambda exercise_id, lang: ("", "")
    render_figure: Callable[[str, str], str] = lambda figure_id, lang: ""
    render_status: Callable[[], str] = lambda: ""

    def label(self, key: str, **params) -> str:
        return self.labels[key].format(**params)


def _block_options(spec: BlockSpec) -> dict:
    return {name: (default, validate) for name, (default, validate) in spec.options.items()}


class CourseBlock(Block):
    """Shared plumbing: the spec, the page context and raw-HTML output."""

    SPEC: BlockSpec
    context: PageContext  # set on the class by `CourseBlocks`

    def stashed(self, html: str) -> etree.Element:
        """A detached element that Markdown replaces with `html`, verbatim, after inline parsing."""
        el = etree.Element("p")
        el.text = self.md.htmlStash.store(html) if html else ""
        return el

    def stash(self, parent: etree.Element, html: str) -> None:
        if html:
            parent.append(self.stashed(html))

    def title(self, parent: etree.Element, css: str, text: str) -> etree.Element:
        el = etree.SubElement(parent, "p", {"class": css})
        el.text = AtomicString(text)  # escaped on output, never parsed as Markdown or HTML
        return el


class StepBlock(CourseBlock):
    SPEC = SPECS["step"]

    def on_create(self, parent):
        number = self.tracker["count"] = self.tracker.get("count", 0) + 1
        el = etree.SubElement(parent, "div", {"class": "course-step", "id": f"step-{number}"})
        head = etree.SubElement(el, "p", {"class": "course-step__title"})
        badge = etree.SubElement(head, "span", {"class": "course-step__number"})
        badge.text = AtomicString(self.context.label("step", n=number))
        badge.tail = AtomicString(" " + self.argument)
        return el


class ReadingBlock(CourseBlock):
    SPEC = SPECS["reading"]

    def on_create(self, parent):
        el = etree.SubElement(parent, "div", {"class": "admonition course-reading"})
        self.title(el, "admonition-title", self.context.label("reading"))
        return el


class ExerciseBlock(CourseBlock):
    SPEC = SPECS["exercise"]

    def on_create(self, parent):
        el = etree.SubElement(
            parent, "section", {"class": "course-exercise", "id": f"exercise-{self.argument}"}
        )
        self.title(el, "course-exercise__title", f"{self.context.label('exercise')} · {self.argument}")
        self.statement = etree.SubElement(el, "div", {"class": "course-exercise__statement"})
        return el

    def on_add(self, block):
        return self.statement

    def on_end(self, block):
        """Statement, then the bank's data, parts and commands, then the hints, then the solution.

        The Blocks API calls this again each time a nested block ends, so it rebuilds the order
        from what is there and renders the exercise only once.
        """
        if not hasattr(self, "generated"):
            body, solution = self.context.render_exercise(self.argument, self.context.lang)
            self.generated = [self.stashed(body), self.stashed(solution)]
        hints = [h for h in (*self.statement, *block) if h.get("class") == "course-hint"]
        if self.options["open"]:  # `open: true` shows the hints unfolded
            for hint in hints:
                hint.set("open", "open")
        for el in (*hints, *self.generated):
            for parent in (self.statement, block):
                if el in list(parent):
                    parent.remove(el)
        block.extend([self.generated[0], *hints, self.generated[1]])


class HintBlock(CourseBlock):
    SPEC = SPECS["hint"]

    def on_create(self, parent):
        el = etree.SubElement(parent, "details", {"class": "course-hint"})
        summary = etree.SubElement(el, "summary")
        summary.text = AtomicString(self.context.label("hint"))
        return el


class FigureBlock(CourseBlock):
    SPEC = SPECS["figure"]

    def on_create(self, parent):
        el = etree.SubElement(parent, "figure", {"class": "course-figure", "id": f"figure-{self.argument}"})
        svg = self.context.render_figure(self.argument, self.context.lang)
        # the drawing's words are its labels: the caption, not the SVG, is what search should find
        self.stash(el, f'<div class="course-figure__drawing" data-search-exclude>{svg}</div>' if svg else "")
        self.caption = etree.SubElement(el, "figcaption")
        return el

    def on_add(self, block):
        return self.caption


class StatusBlock(CourseBlock):
    SPEC = SPECS["translation-status"]

    def on_create(self, parent):
        el = etree.SubElement(parent, "div", {"class": "course-status-block"})
        self.stash(el, self.context.render_status())
        return el


BLOCK_TYPES = (StepBlock, ReadingBlock, ExerciseBlock, HintBlock, FigureBlock, StatusBlock)


class CourseBlocks(BlocksExtension):
    """Registers the course's blocks next to any stock Blocks the site uses."""

    def __init__(self, context: PageContext):
        super().__init__()
        self.context = context

    def extendMarkdownBlocks(self, md, block_mgr):
        for block_type in BLOCK_TYPES:
            spec = block_type.SPEC
            cls = type(
                block_type.__name__,
                (block_type,),
                {
                    "NAME": spec.name,
                    "ARGUMENT": spec.argument is not None,
                    "OPTIONS": _block_options(spec),
                    "context": self.context,
                },
            )
            block_mgr.register(cls, {})
