"""The course's exercise grader.

Stages, one module each: :mod:`grader.bank` (exercises, data, exact reference
answers, from :mod:`grader.geometry`; seeded variants from :mod:`grader.variants`,
drawn from :mod:`grader.seeds`), :mod:`grader.parse` (safe answer parsing),
:mod:`grader.compare` (exact and tolerant comparison), :mod:`grader.feedback`
(named mistakes), :mod:`grader.check` (one part or a submission, under
:mod:`grader.limits`; its results and their words in :mod:`grader.outcome`),
:mod:`grader.fast` (a plain number, without SymPy), :mod:`grader.messages`
(wording per locale, from the gettext catalogs in ``grader/locale``),
:mod:`grader.submission` (reading files), :mod:`grader.batch` (a class's folder,
resumable, on the long-lived workers of :mod:`grader.pool`), :mod:`grader.report`
(text/JSON/Gradescope) and :mod:`grader.cli` (the command; its argparse words
from :mod:`grader.argtext`).
"""
