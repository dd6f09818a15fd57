"""``report.html``: the report's tables as one self-contained page. Pure: tables in, text out.

No script, no font, nothing fetched: the styles are inline, the charts inline SVG, and a
Content-Security-Policy forbids any request, so the page works offline and a hostile
student id cannot reach the network. Every chart has its table beside it (the text
alternative); every word is in the instructor's language; every text from the results
(ids, answers, notes) is made visible (:func:`grader.classreport.text.visible`) and escaped.
"""
from __future__ import annotations

from html import escape

from grader.classreport import charts
from grader.classreport.tables import NEAR_ZERO, OUTCOMES
from grader.classreport.text import fixed, number, percent, visible
from grader.languages.messages import message

SHOWN = 100          # rows of a long list (unreadable files, damaged lines) shown on the page
SEEDS_SHOWN = 10     # hardest and easiest variants shown when there are many
ANSWER_CHARS = 120   # characters of an answer shown (the CSV and JSON have it whole)

CSS = """
:root{color-scheme:light;--ink:#1b1b1b;--muted:#555;--line:#d0d0d0;--bar:#3a6ea5;--track:#eef1f5}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--ink);
margin:0 auto;max-width:72rem;padding:1rem 1.5rem 3rem;line-height:1.45}
h1{font-size:1.7rem}h2{border-bottom:2px solid var(--line);padding-bottom:.2rem;margin-top:2.5rem}
h3{margin-top:2rem}h4{margin:1.2rem 0 .4rem}
.meta,.note{color:var(--muted)}
nav ol{columns:2;padding-left:1.2rem}
dl.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:.5rem;margin:0}
dl.stats div{border:1px solid var(--line);border-radius:4px;padding:.4rem .6rem}
dl.stats dt{font-size:.8rem;color:var(--muted)}dl.stats dd{margin:0;font-size:1.25rem;font-weight:600}
figure{margin:1rem 0}figcaption{font-weight:600;margin-bottom:.3rem}
.pair{display:flex;flex-wrap:wrap;gap:1.2rem;align-items:flex-start}
svg.chart{max-width:100%;height:auto;font-size:11px;fill:var(--ink)}
svg .bar{fill:var(--bar)}svg .track{fill:var(--track)}svg .axis{stroke:var(--muted)}
svg .tick{fill:var(--muted);font-size:10px}svg .seg-label{fill:#fff;font-weight:600}
.correct{fill:#007a55;background:#007a55}.partial{fill:#3a8fc4;background:#3a8fc4}
.wrong{fill:#c84a00;background:#c84a00}.unparsable{fill:#9e4f8a;background:#9e4f8a}
.blank{fill:#8a8a8a;background:#8a8a8a}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.4em;vertical-align:-.05em}
table{border-collapse:collapse;font-size:.9rem}caption{text-align:left;padding:.2rem 0}
th,td{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.text{max-width:28rem;overflow-wrap:anywhere}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.88em;
overflow-wrap:anywhere}
.flag{border-left:4px solid #c84a00;background:#fff4ec;padding:.3rem .6rem}
.measures{display:flex;flex-wrap:wrap;gap:.4rem 2rem}
@media print{nav{display:none}section.part{break-inside:avoid}}
"""


def esc(text: object) -> str:
    """Any text from the results, safe in HTML (element content or a quoted attribute)."""
    return escape(visible(str(text)), quote=True)


class Page:
    """Builds the page for one report in one language."""

    def __init__(self, report: dict, lang: str, files: dict[str, str]):
        self.r, self.lang, self.files, self.figures = report, lang, files, 0

    def w(self, key: str, **params) -> str:
        """A sentence of the report in the page's language, escaped (its parameters too)."""
        return esc(message(f"report.{key}", self.lang, **params))

    def num(self, x, digits: int = 2) -> str:
        return number(x, self.lang, digits)

    def pct(self, x) -> str:
        return percent(x, self.lang)

    # --- building blocks ----------------------------------------------------------

    def figure(self, caption: str, chart: str, table: str) -> str:
        return (f'<figure><figcaption>{caption}</figcaption><div class="pair">{chart}{table}'
                f"</div></figure>")

    def alt(self, caption: str) -> str:
        """The label of a chart: its caption, and where its values are."""
        return message("report.chart-alt", self.lang, caption=caption)

    def table(self, head: list[tuple[str, bool]], rows: list[list[str]], caption: str = "") -> str:
        """A table; ``head`` is ``(heading, numeric)`` per column, cells are already escaped."""
        cap = f"<caption class=\"note\">{caption}</caption>" if caption else ""
        ths = "".join(f'<th scope="col"{" class=n" if n else ""}>{h}</th>' for h, n in head)
        body = "".join("<tr>" + "".join(f'<td{" class=n" if n else " class=text"}>{c}</td>'
                                        for c, (_, n) in zip(row, head)) + "</tr>"
                       for row in rows)
        return f"<table>{cap}<thead><tr>{ths}</tr></thead><tbody>{body}</tbody></table>"

    def histogram(self, hist: dict, caption: str) -> str:
        bins = hist["bins"]
        labels = [self.w("bin", low=self.num(b["low"]), high=self.num(b["high"])) for b in bins[:-1]]
        labels.append(self.w("bin-full", high=self.num(bins[-1]["high"])))
        every = max(1, len(bins) // 8)
        ticks = [self.num(b["low"]) if i % every == 0 or i == len(bins) - 1 else ""
                 for i, b in enumerate(bins)]
        counts = [b["count"] for b in bins]
        chart = charts.histogram(counts, ticks, self.num(max(counts, default=0)), self.alt(caption))
        table = self.table([(self.w("score"), False), (self.w("students"), True)],
                           [[label, self.num(b["count"])] for label, b in zip(labels, bins)])
        return self.figure(esc(caption), chart, table)

    # --- sections -----------------------------------------------------------------

    def html(self) -> str:
        r = self.r
        title = message("report.title", self.lang)
        sections = [self.summary(), self.problems(), *(self.exercise(i, ex) for i, ex in
                                                        enumerate(r["exercises"], 1)),
                    self.variants(), self.method()]
        return ("<!DOCTYPE html>\n"
                f'<html lang="{esc(self.lang)}"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                "style-src 'unsafe-inline'; img-src data:\">"
                '<meta name="referrer" content="no-referrer">'
                f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
                f"<header><h1>{esc(title)}</h1><p class=\"meta\">"
                + self.w("source", path=r["source"]["path"], lines=self.num(r["source"]["lines"]),
                         students=self.num(r["summary"]["students"]))
                + f"</p></header>{self.contents()}<main>" + "".join(sections)
                + "</main></body></html>\n")

    def contents(self) -> str:
        items = [f'<li><a href="#summary">{self.w("summary")}</a></li>']
        items += [f'<li><a href="#ex-{i}">{esc(ex["title"])} (<code>{esc(ex["id"])}</code>)</a></li>'
                  for i, ex in enumerate(self.r["exercises"], 1)]
        if self.r["variants"]:
            items.append(f'<li><a href="#variants">{self.w("variants")}</a></li>')
        items.append(f'<li><a href="#method">{self.w("method")}</a></li>')
        return f'<nav aria-label="{self.w("contents")}"><ol>{"".join(items)}</ol></nav>'

    def summary(self) -> str:
        s = self.r["summary"]
        cells = [("graded", self.num(s["graded"])), ("unreadable", self.num(s["unreadable"]))]
        cells += [(k, self.num(s[k])) for k in ("mean", "median", "q1", "q3", "min", "max")]
        stats = "".join(f"<div><dt>{self.w(k)}</dt><dd>{v}</dd></div>" for k, v in cells)
        out = [f'<section id="summary"><h2>{self.w("summary")}</h2><dl class="stats">{stats}</dl>']
        if not s["graded"]:
            out.append(f'<p>{self.w("no-students")}</p></section>')
            return "".join(out)
        out.append(f'<p class="note">{self.w("out-of", max=self.num(s["max_score"]))}</p>')
        out.append(self.histogram(self.r["histogram"], message("report.histogram-totals", self.lang)))
        out.append(f'<h3>{self.w("by-exercise")}</h3>')
        rows = [[f'{esc(ex["title"])} (<code>{esc(ex["id"])}</code>)', self.num(ex["max_score"]),
                 self.num(ex["mean"]), self.num(ex["median"]), self.num(ex["q1"]), self.num(ex["q3"])]
                for ex in self.r["exercises"]]
        out.append(self.table([(self.w("exercise"), False), (self.w("points"), True),
                               (self.w("mean"), True), (self.w("median"), True),
                               (self.w("q1"), True), (self.w("q3"), True)], rows))
        for ex in self.r["exercises"]:
            caption = message("report.histogram-exercise", self.lang, exercise=ex["title"])
            out.append(self.histogram(ex["histogram"], caption))
        out.append("</section>")
        return "".join(out)

    def problems(self) -> str:
        source, bad = self.r["source"], self.r["unreadable"]
        if not (source["damaged"] or source["torn"] or bad):
            return ""
        out = [f'<section id="problems"><h2>{self.w("problems")}</h2>']
        if source["torn"]:
            out.append(f'<p class="flag">{self.w("torn")}</p>')
        if source["damaged"]:
            out.append(f'<p class="flag">{self.w("damaged", count=self.num(len(source["damaged"])))}</p>')
            rows = [[self.num(d["line"]), self.w(f"reason.{d['reason']}")]
                    for d in source["damaged"][:SHOWN]]
            out.append(self.table([(self.w("line"), True), (self.w("why"), False)], rows,
                                  self.more(len(source["damaged"]), "damaged")))
        if bad:
            out.append(f'<h3>{self.w("unreadable")}</h3>')
            rows = [[esc(u["student"]), esc(u["file"]), esc(u["error"])] for u in bad[:SHOWN]]
            out.append(self.table([(self.w("student"), False), (self.w("file"), False),
                                   (self.w("why"), False)], rows, self.more(len(bad), "unreadable")))
        out.append("</section>")
        return "".join(out)

    def more(self, count: int, table: str) -> str:
        if count <= SHOWN:
            return ""
        return self.w("more", count=self.num(count - SHOWN), file=self.files[table])

    def exercise(self, i: int, ex: dict) -> str:
        out = [f'<section id="ex-{i}"><h2>{esc(ex["title"])} (<code>{esc(ex["id"])}</code>)</h2>']
        for j, part in enumerate(ex["parts"], 1):
            out.append(self.part(f"part-{i}-{j}", part))
        out.append("</section>")
        return "".join(out)

    def part(self, anchor: str, p: dict) -> str:
        prompt = f": {esc(p['prompt'])}" if p["prompt"] else ""
        out = [f'<section class="part" id="{anchor}"><h3><code>{esc(p["id"])}</code>{prompt}</h3>',
               '<p class="measures">',
               f'<span>{self.w("points")}: {self.num(p["max_score"])}</span>',
               f'<span>{self.w("students")}: {self.num(p["students"])}</span>',
               f'<span>{self.w("difficulty")}: {fixed(p["difficulty"], self.lang)}</span>',
               f'<span>{self.w("discrimination")}: {fixed(p["discrimination"], self.lang)}</span></p>']
        if p["flag"]:
            out.append(f'<p class="flag">{self.w("flag." + p["flag"], threshold=fixed(NEAR_ZERO, self.lang, 1))}</p>')
        out += [self.outcomes(p), self.mistakes(p), self.other_notes(p), self.wrong_answers(p),
                "</section>"]
        return "".join(out)

    def outcomes(self, p: dict) -> str:
        caption = message("report.outcomes", self.lang)
        o = p["outcomes"]
        chart = charts.stacked([(k, o[k]["share"], self.pct(o[k]["share"])) for k in OUTCOMES],
                               self.alt(caption))
        rows = [[f'<span class="swatch {k}"></span>{self.w("outcome." + k)}',
                 self.num(o[k]["count"]), self.pct(o[k]["share"])] for k in OUTCOMES]
        table = self.table([(self.w("outcome"), False), (self.w("students"), True),
                            (self.w("share"), True)], rows)
        return self.figure(f"<h4>{esc(caption)}</h4>", chart, table)

    def mistakes(self, p: dict) -> str:
        caption = message("report.mistakes", self.lang)
        if not p["mistakes"]:
            return f'<h4>{esc(caption)}</h4><p class="note">{self.w("no-mistakes")}</p>'
        if not any(m["count"] for m in p["mistakes"]):     # nothing to draw: the table says it
            return (f'<h4>{esc(caption)}</h4><p class="note">{self.w("no-mistakes-made")}</p>'
                    + self.notes_table(p["mistakes"], "mistake"))
        chart = charts.bars([(m["key"], m["share"], f'{self.pct(m["share"])} ({self.num(m["count"])})')
                             for m in p["mistakes"]], self.alt(caption))
        return self.figure(f"<h4>{esc(caption)}</h4>", chart, self.notes_table(p["mistakes"], "mistake"))

    def notes_table(self, rows: list[dict], heading: str) -> str:
        return self.table([(self.w(heading), False), (self.w("feedback"), False),
                           (self.w("students"), True), (self.w("share"), True)],
                          [[f"<code>{esc(m['key'])}</code>", esc(m["feedback"]), self.num(m["count"]),
                            self.pct(m["share"])] for m in rows])

    def other_notes(self, p: dict) -> str:
        if not p["other_notes"]:
            return ""
        return f'<h4>{self.w("other-notes")}</h4>' + self.notes_table(p["other_notes"], "note")

    def wrong_answers(self, p: dict) -> str:
        out = [f'<h4>{self.w("wrong-answers")}</h4>']
        if not p["wrong_answers"]:
            return out[0] + f'<p class="note">{self.w("no-wrong-answers")}</p>'
        rows = [[f"<code>{esc(_cut(a['answer']))}</code>", f"<code>{esc(_cut(a['value']))}</code>",
                 self.num(a["forms"]), self.num(a["count"]), self.pct(a["share"]),
                 f"<code>{esc(a['note'])}</code>"] for a in p["wrong_answers"]]
        out.append(self.table([(self.w("answer"), False), (self.w("value"), False),
                               (self.w("forms"), True), (self.w("students"), True),
                               (self.w("share"), True), (self.w("note"), False)], rows,
                              self.w("wrong-answers-note")))
        return "".join(out)

    def variants(self) -> str:
        v = self.r["variants"]
        if not v:
            return ""
        ids = [ex["id"] for ex in self.r["exercises"]]
        rows = v["by_seed"]
        out = [f'<section id="variants"><h2>{self.w("variants")}</h2>',
               f'<p>{self.w("variants-intro", seeds=self.num(v["seeds"]))}</p>']
        if v["students_per_seed_max"] == 1:
            out.append(f'<p class="note">{self.w("one-each")}</p>')
        shown = rows if len(rows) <= 2 * SEEDS_SHOWN else rows[:SEEDS_SHOWN] + rows[-SEEDS_SHOWN:]
        top = max((row["max"] or 0 for row in rows), default=0) or 1
        label = lambda row: message("report.lesson-data", self.lang) if row["seed"] is None else row["seed"]  # noqa: E731
        caption = message("report.seed-means", self.lang)
        chart = charts.bars([(label(row), row["mean"] / top, self.num(row["mean"])) for row in shown],
                            self.alt(caption))
        cells = [[esc(label(row)), self.num(row["students"]), self.num(row["mean"]),
                  self.num(row["min"]), self.num(row["max"]),
                  *(self.num(row["exercises"].get(i)) for i in ids)] for row in shown]
        head = [(self.w("variant"), False), (self.w("students"), True), (self.w("mean"), True),
                (self.w("min"), True), (self.w("max"), True), *((f"<code>{esc(i)}</code>", True) for i in ids)]
        note = "" if shown is rows else self.w("variants-cut", shown=self.num(SEEDS_SHOWN),
                                               seeds=self.num(len(rows)), file=self.files["variants"])
        out.append(self.figure(esc(caption), chart, self.table(head, cells, note)))
        out.append("</section>")
        return "".join(out)

    def method(self) -> str:
        return (f'<section id="method"><h2>{self.w("method")}</h2>'
                f'<p>{self.w("method-text", threshold=fixed(NEAR_ZERO, self.lang, 1))}</p>'
                f'<p class="note">{self.w("files", files=", ".join(sorted(self.files.values())))}</p>'
                "</section>")


def _cut(text: str) -> str:
    return text if len(text) <= ANSWER_CHARS else text[:ANSWER_CHARS - 1] + "\u2026"


def page(report: dict, lang: str, files: dict[str, str]) -> str:
    """The whole page. ``files``: table name -> the CSV file holding it in full."""
    return Page(report, lang, files).html()

