"""Languages: every sentence the grader prints, by stable key, from the gettext catalogs in
``grader/locale/`` (:mod:`.messages`), their checks (:mod:`.audit`), and numbers as each locale
writes them (:mod:`.numerals`). ``python -m grader.languages [LOCALE]`` checks the catalogs."""
