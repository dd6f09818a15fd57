"""The exercises and their model: what an exercise declares (:mod:`.exercise`), the registry of the
modules in :mod:`grader.exercises` (:mod:`.bank`), variants drawn from a seed (:mod:`.variants`,
:mod:`.seeds`), the shared geometry the references are computed with, and what the site shows of an
exercise (:mod:`.tex`, :mod:`.drawing`)."""
