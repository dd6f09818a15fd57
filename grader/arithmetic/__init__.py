"""Numbers and how two of them compare: the one tolerance (:mod:`.tolerance`), exact fractions and
proven intervals (:mod:`.intervals`), and comparisons that hold for SymPy values, fractions and
intervals alike (:mod:`.compare`). No words, no exercises."""
