"""Reading an answer: what students type, rewritten (:mod:`.notation`), then parsed by an allow-list
over Python's ``ast`` (:mod:`.parse`); nothing a student types is ever evaluated."""
