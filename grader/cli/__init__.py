"""The ``grader`` command (:mod:`.main`), what it prints (:mod:`.output`) and its help in every
language (:mod:`.argtext`)."""
