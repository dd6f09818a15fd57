"""The course's block types as pymdown-extensions Blocks, built from `blockspec.SPECS`.

Each block reads what it needs for the page being rendered (its language,
labels, the exercise and figure renderers) from one `PageContext` that the
hook updates before every page.

Every word a block adds (a step's badge, a title, a summary, an exercise's furniture, a figure's
labels) is in the page's locale and says so with `lang`: on a page shown in place of a missing
translation, the chapter's own text is English (the hook marks it so) and the furniture is not.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from typing import Callable

from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString
from pymdownx.blocks import BlocksExtension
from pymdownx.blocks.block import Block

from hooks.chapters.blockspec import SPECS, BlockSpec

# a display formula in generated HTML (MathML, never nested); the chapter's own are wrapped the same way by
# hooks/chapters/mathml.py, so every display formula scrolls sideways in its box when it is too wide for the column
DISPLAY_MATH = re.compile(r'<math\b[^>]*\bdisplay="block"[^>]*>.*?</math>', re.S)
IDS = re.compile(r'\b(id|aria-labelledby|aria-describedby)="([^"]+)"')


def suffixed_ids(html: str, suffix: str) -> str:
    """Generated HTML with its ids (and the references to them) made different, for a second copy on the page."""
    return IDS.sub(lambda m: f'{m.group(1)}="{" ".join(i + suffix for i in m.group(2).split())}"', html)


@dataclass
class PageContext:
    """What blocks need to know about the page being rendered."""

    lang: str = "en"
    labels: dict = field(default_factory=dict)
    render_exercise: Callable[[str, str], tuple[str, str]] = lambda exercise_id, lang: ("", "")
    render_figure: Callable[[str, str], str] = lambda figure_id, lang: ""
    render_status: Callable[[], str] = lambda: ""
    # an exercise's title in a language (the catalog's exercise.<id>.title): its heading says it, not its id
    exercise_title: Callable[[str, str], str] = lambda exercise_id, lang: exercise_id
    print_solutions: bool = False  # hints and solutions printed at the end of the page (`extra.course.print_solutions`)

    def label(self, key: str, **params) -> str:
        return self.labels[key].format(**params)


def words(parent: etree.Element, tag: str, css: str | None, text: str, lang: str) -> etree.Element:
    """An element holding `text` in `lang`, escaped on output, never parsed as Markdown or HTML."""
    el = etree.SubElement(parent, tag, {"lang": lang, **({"class": css} if css else {})})
    el.text = AtomicString(text)
    return el


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

    def in_locale(self, html: str) -> str:
        """Generated HTML in the page's locale, marked as such, its display formulas laid out as the chapter's."""
        html = DISPLAY_MATH.sub(lambda m: f'<div class="course-math">{m.group(0)}</div>', html)
        return f'<div lang="{self.context.lang}">{html}</div>' if html else ""

    def words(self, parent: etree.Element, tag: str, css: str | None, text: str) -> etree.Element:
        return words(parent, tag, css, text, self.context.lang)


class StepBlock(CourseBlock):
    SPEC = SPECS["step"]

    def on_create(self, parent):
        number = self.tracker["count"] = self.tracker.get("count", 0) + 1
        el = etree.SubElement(parent, "div", {"class": "course-step", "id": f"step-{number}"})
        head = etree.SubElement(el, "p", {"class": "course-step__title"})
        badge = self.words(head, "span", "course-step__number", self.context.label("step", n=number))
        badge.tail = AtomicString(" " + self.argument)
        return el


class ReadingBlock(CourseBlock):
    SPEC = SPECS["reading"]

    def on_create(self, parent):
        el = etree.SubElement(parent, "div", {"class": "admonition course-reading"})
        self.words(el, "p", "admonition-title", self.context.label("reading"))
        return el


def heading_level(root: etree.Element) -> int:
    """The level of a heading placed here: one below the last heading so far (h2 on a page with none)."""
    levels = [int(el.tag[1]) for el in root.iter() if el.tag in HEADINGS]
    return min((levels[-1] if levels else 1) + 1, 6)


HEADINGS = frozenset(f"h{n}" for n in range(1, 7))


class ExerciseBlock(CourseBlock):
    SPEC = SPECS["exercise"]

    def on_create(self, parent):
        el = etree.SubElement(
            parent, "section", {"class": "course-exercise", "id": f"exercise-{self.argument}"}
        )
        # a heading, so a screen reader can jump from exercise to exercise; its own id keeps the
        # table of contents from minting one that clashes with the section's
        title = self.words(el, f"h{heading_level(self.md.parser.root)}", "course-exercise__title",
                           f"{self.context.label('exercise')} · {self.context.exercise_title(self.argument, self.context.lang)}")
        title.set("id", f"exercise-{self.argument}-title")
        self.statement = etree.SubElement(el, "div", {"class": "course-exercise__statement"})
        return el

    def on_add(self, block):
        return self.statement

    def on_end(self, block):
        """Statement, then the bank's data and parts, each hint right after the last of the parts it names (a
        hint that names none after them all), then the commands, then the solution.

        The Blocks API calls this again each time a nested block ends, so it rebuilds the order
        from what is there and renders the exercise only once.
        """
        if not hasattr(self, "rendered"):
            self.rendered = self.context.render_exercise(self.argument, self.context.lang)
            solution = self.rendered[1]
            # the copy printed at the end of the page, unfolded
            self.printed = self.in_locale(suffixed_ids(re.sub(r"^<details\b", "<details open", solution), "-printed"))
            self.generated = []
        body, solution = self.rendered
        # the hints moved out at an earlier call are in the block: the statement holds only the later ones
        hints = [h for h in (*block, *self.statement) if h.get("class") == "course-hint"]
        for el in (*hints, *self.generated):
            for parent in (self.statement, block):
                if el in list(parent):
                    parent.remove(el)
        order = part_order(body)
        placed = sorted((anchor(hint, order), i, hint) for i, hint in enumerate(hints))   # (where, as written)
        hints = [hint for _, _, hint in placed]
        for number, hint in enumerate(hints, 1):
            summary = hint.find("summary")
            summary.text = AtomicString(self.context.label("hint_of", n=number, total=len(hints)) if len(hints) > 1
                                        else self.context.label("hint"))
            if self.options["open"]:  # `open: true` shows the hints unfolded
                hint.set("open", "open")
            hint.set("data-hint", str(number))
        after = {}  # the part a hint follows (None: after them all) -> its hints, in order
        for at, _, hint in placed:
            after.setdefault(order[at] if at < len(order) else None, []).append(hint)
        pieces = split_after_parts(body, [p for p in after if p is not None])
        self.generated = [self.stashed(self.in_locale(html)) for _, html in pieces]
        self.generated.append(self.stashed(self.in_locale(solution)))
        for (part, _), el in zip(pieces, self.generated):   # the last piece (None) is followed by the hints
            block.append(el)                                 # that name no part
            block.extend(after.get(part, []))
        block.append(self.generated[-1])
        self.tracker.setdefault("printed", {})[self.argument] = (hints, self.printed)


PART_ITEM = re.compile(r'<li data-part="([^"]+)"')


def part_order(body: str) -> list[str]:
    """The exercise's part ids, in the order its body lists them."""
    return PART_ITEM.findall(body)


def anchor(hint: etree.Element, order: list[str]) -> int:
    """Where a hint goes: the index of the last of its parts (len(order): after every part)."""
    named = (hint.get("data-parts") or "").split()
    return max((order.index(p) for p in named if p in order), default=len(order))


def split_after_parts(body: str, parts: list[str]) -> list[tuple[str | None, str]]:
    """The exercise's body cut after each of ``parts``' items, as (the part a piece ends after, or None; the
    piece): every piece whole HTML, the list of parts closed before a cut and opened again after it, its
    numbering going on."""
    order = part_order(body)
    pieces, rest = [], body
    for index in sorted(order.index(p) for p in parts if p in order):
        if index < len(order) - 1:
            following = rest.index(f'<li data-part="{order[index + 1]}"')
            pieces.append((order[index], rest[:following] + "</ol>"))
            rest = f'<ol class="course-exercise__parts" start="{index + 2}">' + rest[following:]
        else:  # after the last part: where its list ends
            end = rest.index("</ol>", rest.index(f'<li data-part="{order[index]}"')) + len("</ol>")
            pieces.append((order[index], rest[:end]))
            rest = rest[end:]
    return pieces + [(None, rest)]


class HintBlock(CourseBlock):
    SPEC = SPECS["hint"]

    def on_create(self, parent):
        parts = self.options.get("parts")
        el = etree.SubElement(parent, "details", {"class": "course-hint", **({"data-parts": " ".join(parts)} if parts else {})})
        self.words(el, "summary", None, self.context.label("hint"))  # numbered once the exercise is whole
        return el


class FigureBlock(CourseBlock):
    SPEC = SPECS["figure"]

    def on_create(self, parent):
        el = etree.SubElement(parent, "figure", {"class": "course-figure", "id": f"figure-{self.argument}"})
        svg = self.context.render_figure(self.argument, self.context.lang)
        # the drawing's words are its labels: the caption, not the SVG, is what search should find
        drawing = f'<div class="course-figure__drawing" lang="{self.context.lang}" data-search-exclude>{svg}</div>'
        self.stash(el, drawing if svg else "")
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


class PrintedAnswers(Treeprocessor):
    """With `print_solutions` on, every exercise's hints and solution again at the end of the page, unfolded:
    hidden on screen and out of search, printed there (course.css), while the ones under each exercise print
    folded."""

    def __init__(self, md, block_mgr, context: PageContext):
        super().__init__(md)
        self.block_mgr, self.context = block_mgr, context

    def run(self, root):
        exercises = self.block_mgr.trackers.get(SPECS["exercise"].name, {}).get("printed")
        if not self.context.print_solutions or not exercises:
            return
        lang, label = self.context.lang, self.context.label
        # the hints' text is the chapter's (English on a page shown in place of a translation): only the words
        # added here are marked as the page's locale
        section = etree.SubElement(root, "section", {"class": "course-print", "data-search-exclude": "true"})
        words(section, "p", "course-print__title", label("reader.print_answers"), lang)
        for exercise_id, (hints, solution) in exercises.items():
            words(section, "p", "course-print__exercise", f"{label('exercise')} · {self.context.exercise_title(exercise_id, lang)}", lang)
            for hint in hints:
                copied = etree.SubElement(section, "div", {"class": "course-print__hint"})
                words(copied, "p", "course-print__label", label("hint"), lang)
                copied.extend(copy.deepcopy(child) for child in hint if child.tag != "summary")
            if solution:
                etree.SubElement(section, "p").text = self.md.htmlStash.store(solution)


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
        # before inline processing (20), so the copies of the hints are processed like the hints
        md.treeprocessors.register(PrintedAnswers(md, block_mgr, self.context), "course_printed_answers", 25)
