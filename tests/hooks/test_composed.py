"""The grader's messages with their values filled in: composed as the grader writes them, and each defect that only
shows once composed, planted in a copy of the catalogs, found at the message's msgstr line."""

from __future__ import annotations

import shutil
from decimal import Decimal

import pytest

from grader import bank
from grader.languages.messages import LOCALES, message
from hooks.translations import composed
from hooks.translations import report as translations
from tests.hooks.test_surfaces import CATALOG, ROOT, clean_copy, set_message


def glossary(locale: str) -> translations.Glossary:
    return translations.load_glossary(ROOT / "docs" / locale, translations.load_glossary(ROOT / "docs" / "en"))


def found(locale: str, root=None, said=None) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.kind) for f in composed.check_composed(locale, glossary(locale), root, said)]


def msgstr_line(root, locale: str, key: str) -> int:
    lines = (root / CATALOG.format(locale)).read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgctxt "{key}"')
    return next(n for n in range(at, len(lines)) if lines[n].startswith("msgstr ")) + 1


@pytest.mark.parametrize("lang", LOCALES)
def test_a_composed_message_is_the_text_the_grader_writes(lang):
    """compose() marks where each value goes; its text is message()'s, word for word, for every message the bank
    and the answers fill (a drift between the two would check a text no student reads)."""
    table, english = composed.templates(lang), composed.templates("en")
    said = composed.everything_said()
    for one in said:
        params = {name: value.text(lang) if isinstance(value, composed.Localized) else value for name, value in one.params}
        assert composed.compose(one.key, dict(one.params), lang, table, english).text == \
            message(one.key, lang, **params), (one.key, one.origin)


def test_the_grader_fills_every_prompt_form_and_refusal_it_can():
    keys = {one.key for one in composed.everything_said()}
    parts = [(ex.id, p) for ex in bank.EXERCISES.values() for p in ex.parts]
    assert {f"part.{ex}.{p.id}.prompt" for ex, p in parts} <= keys
    assert {"wrong-form", "show.data-item", "show.part", "label-form", "other-part", "digit-underscore",
            "decimal-comma-in-vector", "unit-in-answer", "removed-simplex-vertex"} <= keys
    forms = {dict(one.params)["expected"] for one in composed.everything_said() if one.key == "wrong-form"}
    assert forms == {f"key:{p.form}" for _, p in parts}


@pytest.mark.parametrize("locale", ["ja", "zh", "ko", "fr", "id"])
def test_the_published_catalogs_read_right_composed(locale):
    assert [str(f) for f in composed.check_composed(locale, glossary(locale))] == []


# (locale, {key: msgstr} planted, the kind found at the first key's msgstr): what a template alone does not show
PLANTED = [
    # the issue's wrong-form: a form description with its own colon, embedded mid-sentence
    ("ko", {"wrong-form": "형식이 틀렸습니다: {expected}이어야 하는데 입력한 것은 {got}입니다.",
            "form.number": "수: sqrt(2)/3 같은 정확한 식 또는 0.471 같은 소수"}, "composed"),
    ("ja", {"wrong-form": "答えの形が違います：求められているのは{expected}ですが、入力は{got}です。",
            "form.number": "数値：sqrt(2)/3 のような厳密な式、または 0.471 のような小数"}, "composed"),
    # a space before a value that turns out to be Chinese text
    ("zh", {"wrong-form": "形式不对：应为 {expected}，但你给出的是{got}。"}, "typography"),
    # a value in brackets, then a particle that does not agree with it (the template check cannot see it)
    ("ko", {"missing-points": "꼭짓점이 빠졌습니다: 전체 {total}개 중({count})을 빠뜨렸습니다."}, "particle"),
    # a Korean bracket set apart from its word once the value before it is filled in
    ("ko", {"show.heading": "{id}: {title} ({lesson})"}, "typography"),
]


@pytest.mark.parametrize("locale, planted, kind", PLANTED)
def test_a_defect_that_shows_once_composed_is_found_at_its_msgstr(tmp_path, locale, planted, kind):
    copy = clean_copy(tmp_path, locale)
    key = next(iter(planted))
    said = [s for s in composed.everything_said() if s.key == key]
    assert (CATALOG.format(locale), msgstr_line(copy, locale, key), kind) not in found(locale, copy, said)
    for name, value in planted.items():
        set_message(copy, locale, name, value)
    assert (CATALOG.format(locale), msgstr_line(copy, locale, key), kind) in found(locale, copy, said)
    shutil.copy(ROOT / CATALOG.format(locale), copy / CATALOG.format(locale))
    assert (CATALOG.format(locale), msgstr_line(copy, locale, key), kind) not in found(locale, copy, said)


@pytest.mark.parametrize("locale, quoted, answer", [("fr", "000_1", "0,000_1"), ("id", "2_000", "(1, 2_000,5)")])
def test_a_refusal_that_cuts_the_students_number_is_found(locale, quoted, answer):
    """The reader once quoted `0,000_1` as '000_1' in French: the quote starts inside the number."""
    cut = composed.Said("digit-underscore", (("text", quoted), ("value", Decimal(1))), "a test", answer, locale)
    whole = composed.Said("digit-underscore", (("text", answer.strip("(1, )")), ("value", Decimal(1))), "a test",
                          answer, locale)
    line = msgstr_line(ROOT, locale, "digit-underscore")
    assert found(locale, said=[cut]) == [(CATALOG.format(locale), line, "composed")]
    assert found(locale, said=[whole]) == []


def test_an_embedded_message_the_locale_lacks_is_the_catalogs_warning_not_an_error(tmp_path):
    """A message not translated yet is shown in English inside the sentence (gettext's fallback): the catalog
    check lists it as catalog-untranslated, a warning, while the translator works; it is no error here."""
    copy = clean_copy(tmp_path, "ko")
    set_message(copy, "ko", "kind-scalar", "")
    said = [s for s in composed.everything_said() if s.key == "wrong-form"]
    assert found("ko", copy, said) == []
    assert "a single number" in composed.compose("wrong-form", dict(said[0].params), "ko", composed.templates("ko", copy),
                                                 composed.templates("en", copy)).text


def test_a_value_that_brings_english_words_is_found():
    english = composed.Localized(lambda lang: "undecided", "a value the code writes in English")
    said = [composed.Said("read-as", (("expression", english),), "a test")]
    assert found("fr", said=said) == [(CATALOG.format("fr"), msgstr_line(ROOT, "fr", "read-as"), "untranslated")]


def test_the_english_words_a_value_brings_are_named_each_one():
    english = composed.Localized(lambda lang: "undecided outcome", "a value the code writes in English")
    said = [composed.Said("read-as", (("expression", english),), "a test")]
    [finding] = composed.check_composed("fr", glossary("fr"), None, said)
    assert str(finding).endswith("undecided outcome'): English word(s) undecided, outcome once its values are "
                                 "filled in"), finding


def test_a_value_written_the_english_way_in_a_decimal_comma_locale_is_found():
    english_way = composed.Localized(lambda lang: "0.471", "a number formatted for English")
    said = [composed.Said("read-as", (("expression", english_way),), "a test")]
    assert found("fr", said=said) == [(CATALOG.format("fr"), msgstr_line(ROOT, "fr", "read-as"), "numbers")]


def test_compose_marks_each_value_and_a_message_no_table_has_is_its_key():
    assert composed.compose("nope", {}, "fr", {}, {}) == composed.Composed("nope", ())
    shown = composed.Localized(lambda lang: "v-" + lang)
    assert composed.compose("k", {"x": shown, "y": Decimal("0.5")}, "fr", {"k": "a {x} b {y}"}, {}) == \
        composed.Composed("a v-fr b 0,5", (composed.Span(2, 6, "value"), composed.Span(9, 12, "value")))


def test_a_quote_that_cuts_a_number_is_named_with_the_answer():
    said = dict((("text", "000_1"), ("value", Decimal(1))))
    message = composed.compose("digit-underscore", said, "fr", composed.templates("fr"), composed.templates("en"))
    assert composed.cut_quotes(message, "0,000_1", "fr") == [
        "it quotes '000_1' of the answer '0,000_1', cutting a number of it: the reader (grader/reading) must quote "
        "the whole number"]


def test_a_run_on_is_an_embedded_colon_the_sentence_goes_on_after():
    def build(own, outer):
        start = outer.index("{x}")
        text = outer.replace("{x}", own)
        return composed.Composed(text, (composed.Span(start, start + len(own), "message", "form.number", own),))

    assert composed.run_ons(build("수: 정확한 식", "형식: {x}이어야 합니다.")) == [
        "it embeds form.number ('수: 정확한 식'), whose own colon leaves the sentence running on after it: end the "
        "sentence with it (after a colon of this message's own), or embed a message without a colon"]
    assert composed.run_ons(build("수: 정확한 식", "요구되는 형식: {x}.")) == []      # it ends the sentence
    assert len(composed.run_ons(build("수: 정확한 식", "형식: {x}이어야 합니다"))) == 1   # no sentence end after it
    assert composed.run_ons(build("数値（例：4）", "求められているのは{x}ですが")) == []   # the colon is the bracket's


@pytest.mark.parametrize("text, right", [("3", "을"), ("2", "를"), ("벡터", "를"), ("집합", "을"), ("1", "을")])
def test_korean_particles_agree_with_the_value_before_them(text, right):
    for form in ("을", "를"):
        sentence = composed.Composed(f"{text}{form} 쓰세요", (composed.Span(0, len(text), "value"),))
        assert bool(composed.particle_agreement(sentence)) == (form != right)


@pytest.mark.parametrize("text, sound", [
    ("1", (True, True)), ("2", (False, False)), ("6", (True, False)), ("7", (True, True)), ("8", (True, True)),
    ("9", (False, False)), ("0", (True, False)), ("3)", (True, False)), ("'벡터'", (False, False)), ("길", (True, True)),
    ("각", (True, False)), ("가", (False, False)), ("힣", (True, False)), ("x", None), ("", None), ("٣", None),
    ("2X", None)])
def test_the_last_sound_of_a_value_is_its_last_digits_korean_name_or_its_last_syllable(text, sound):
    """(ends in a consonant, that consonant is ㄹ): 일 칠 팔 end in ㄹ, 이 사 오 구 in a vowel; a syllable by its final;
    closing brackets and quotes are passed over; a letter Korean does not read, or another script's digit, says nothing."""
    assert composed._final(text) == sound


@pytest.mark.parametrize("text, particle, right", [
    ("1", "로", None), ("1", "으로", "로"), ("3", "으로", None), ("3", "로", "으로"), ("2", "로", None), ("2", "으로", "로"),
    ("3", "과", None), ("2", "과", "와"), ("2", "는", None), ("3", "는", "은"), ("3", "가", "이"), ("2", "이 ", "가"),
    ("2", "이어야", None)])      # 이어야: the copula, not the particle 이
def test_korean_particles_agree_with_the_value_before_them_said_with_the_form_to_write(text, particle, right):
    sentence = composed.Composed(f"x {text}{particle} 쓰세요", (composed.Span(0, 1, "value"), composed.Span(2, 2 + len(text), "value")))
    found = composed.particle_agreement(sentence)
    if right is None:
        assert found == []
    else:
        assert found == [f"'{text}{particle.strip()}': after this value Korean writes {right}; write a construction that "
                         "reads right whatever the value"]


def test_a_space_between_two_cjk_characters_is_named_by_the_characters_around_it():
    assert composed.stray_spaces("値は 数値 です") == [
        "a space between 'は' and '数': Japanese and Chinese set no space between their characters",
        "a space between '値' and 'で': Japanese and Chinese set no space between their characters"]
    assert composed.stray_spaces("値は 4 です") == composed.stray_spaces("a b") == []


def test_a_value_the_grader_writes_per_language_is_shown_by_its_name():
    """How a finding's value reads in a test's report (pytest shows it with repr)."""
    assert repr(composed.Localized(str.upper, "attention-weights's q")) == "attention-weights's q"
    assert repr(composed.Localized(str.upper)) == "a value"


def test_a_proven_interval_is_stored_as_a_number_and_an_exact_form_as_its_text():
    """A value the disk cache keeps: an interval as the number it stands for, which each locale writes its own way
    (1,414 in French); a SymPy form as the grader writes it, the same in every language, read back as one."""
    import sympy

    from grader.arithmetic import intervals
    from grader.languages.numerals import format_value

    assert composed._value(intervals.sqrt(2)) == float(intervals.sqrt(2))
    assert format_value(composed._unvalue(composed._value(intervals.sqrt(2))), "fr").startswith("1,41")
    stored = composed._value(sympy.sqrt(2) / 2)
    assert stored == {"exact": format_value(sympy.sqrt(2) / 2, "en")}
    back = composed._unvalue(stored)
    assert isinstance(back, composed.Exact) and back == stored["exact"]


# --- what the grader fills, computed here in process (everything_said() reads it from the disk cache)


def test_the_bank_fills_each_exercises_lines_and_every_form_against_every_kind_a_student_gives():
    """bank_said(): per exercise `grader show`'s heading (its title and lesson) and one line per datum (printed as
    `grader show` prints it, in each language); per part its prompt with its parameters, its `show.part` line, its
    form's label, and `wrong-form` against each kind an answer can have (a real and an integer are one to a
    student: a number)."""
    from grader.model.display import data_text

    said = composed.bank_said()
    assert len(said) == len(set(said))
    by_key = {}
    for one in said:
        by_key.setdefault(one.key, []).append(one)
    english = composed.templates("en")
    assert {"kind-scalar", "kind-vector", "kind-set"} <= set(english)
    for ex in bank.EXERCISES.values():
        heading, = [s for s in by_key["show.heading"] if dict(s.params)["id"] == ex.id]
        assert dict(heading.params) == {"id": ex.id, "title": f"key:exercise.{ex.id}.title",
                                        "lesson": "key:label-lesson", "n": ex.lesson}
        assert heading.origin == f"grader show {ex.id}" and heading.answer is None and heading.convention is None
        items = {dict(s.params)["label"]: s for s in by_key["show.data-item"] if s.origin.startswith(f"grader show {ex.id},")}
        assert set(items) == {f"key:data.{ex.id}.{name}" for name in ex.data}
        for name, value in ex.data.items():
            item = items[f"key:data.{ex.id}.{name}"]
            assert name in item.origin
            shown = dict(item.params)["value"]
            assert isinstance(shown, composed.Localized) and ex.id in repr(shown) and name in repr(shown)
            assert {lang: shown.text(lang) for lang in LOCALES} == {lang: data_text(value, lang) for lang in LOCALES}
        for part in ex.parts:
            prompt, = by_key[f"part.{ex.id}.{part.id}.prompt"]
            assert prompt.params == part.params and ex.id in prompt.origin and part.id in prompt.origin
            line, = [s for s in by_key["show.part"] if dict(s.params)["prompt"] == f"key:part.{ex.id}.{part.id}.prompt"]
            assert line.params[:3] == (("part", part.id), ("points", part.points),
                                       ("prompt", f"key:part.{ex.id}.{part.id}.prompt"))
            assert line.params[3:] == part.params and part.id in line.origin
            assert f"grader show {ex.id}, part {part.id}" in [s.origin for s in by_key["label-form"]
                                                              if s.params == (("form", f"key:{part.form}"),)]
            wrong = [s for s in by_key["wrong-form"] if f"{ex.id} {part.id} " in s.origin]
            assert sorted(dict(s.params)["got"] for s in wrong) == ["key:kind-scalar", "key:kind-set", "key:kind-vector"]
            assert {dict(s.params)["expected"] for s in wrong} == {f"key:{part.form}"}
            assert all(s.origin.endswith(dict(s.params)["got"].removeprefix("key:kind-")) for s in wrong)


def test_every_refusal_said_is_the_readers_own_and_every_judgment_is_of_a_corpus_answer():
    """answered_said(): a refusal is the reader's, for that very text in that convention; a judgment is of an answer
    of the checker's corpus (its origin names it) and holds for every locale; a test answer with a decimal point is
    read too as a reader of a decimal-comma locale writes it."""
    from grader.reading import parse
    from hooks.checker import corpus

    said = composed.answered_said()
    answers = {case.answer for case in corpus.corpus()}
    refusals = [s for s in said if s.convention is not None]
    assert refusals and len(refusals) < len(said)
    for one in refusals:
        assert one.origin == f"the answer {one.answer!r} read in {one.convention}"
        if one.answer not in answers:       # a test's answer, read alone (a corpus answer is read as its part's)
            with pytest.raises(parse.AnswerSyntaxError) as refused:
                parse.read(one.answer, convention=one.convention, shape=())
            assert (refused.value.error.key, refused.value.error.params) == (one.key, one.params)
    for one in said:
        if one.convention is None:
            assert one.answer in answers and one.origin.endswith(f" answered {one.answer!r}")
    marked = {s.answer for s in refusals if s.convention == "fr"} - set(corpus.grader_test_answers())
    assert any("," in answer and composed._with_decimal_mark(answer.replace(",", "."), "en") != answer
               for answer in marked) or not marked
    assert {"digit-underscore", "empty-answer", "bracket-not-closed"} <= {s.key for s in refusals}


@pytest.mark.parametrize("answer, locale, written", [("2_000.5", "fr", "2_000,5"), ("(0.5, 1.25)", "id", "(0,5, 1,25)"),
                                                     ("2_000.5", "ja", "2_000.5"), ("x.y", "fr", "x.y"),
                                                     ("1. 5", "fr", "1. 5")])
def test_an_answer_is_written_with_the_locales_decimal_mark_between_digits_only(answer, locale, written):
    assert composed._with_decimal_mark(answer, locale) == written


@pytest.mark.parametrize("lang", LOCALES)
def test_what_is_said_reads_the_same_once_stored_and_read_back(lang):
    """The disk cache stores each message's values as JSON (_encoded) and reads them back (_decoded): every message
    the bank and the answers fill composes, read back, to the text the grader writes with the original values."""
    import json

    table, english = composed.templates(lang), composed.templates("en")
    for one in [*composed.bank_said(), *composed.answered_said()]:
        row = composed._encoded(one)
        if not composed._storable(row):
            continue
        back = composed._decoded(json.loads(json.dumps(row, ensure_ascii=False)))
        assert (back.key, back.origin, back.answer, back.convention) == (one.key, one.origin, one.answer, one.convention)
        params = {name: value.text(lang) if isinstance(value, composed.Localized) else value for name, value in one.params}
        text = message(one.key, lang, **params)
        assert composed.compose(one.key, dict(one.params), lang, table, english).text == text, (one.key, one.origin)
        assert composed.compose(back.key, dict(back.params), lang, table, english).text == text, (one.key, one.origin)


def test_the_answers_said_are_every_corpus_answer_judged_and_every_test_answer_read_in_every_convention():
    """answered_said() judges each distinct reading once (the same exercise, part, seed and reading share a
    judgment): what it says is what judging every corpus answer in every locale's convention, one by one, says
    (a seeded case judged against its own variant), and every refusal of every test answer, as written and with
    the locale's decimal mark, in every convention."""
    from grader.judging.check import judge, part_info
    from grader.reading import parse
    from hooks.checker import corpus

    def read(text, convention, shape):
        try:
            parse.read(text, convention=convention, shape=shape)
        except parse.AnswerSyntaxError as error:
            return [(error.error.key, error.error.params, f"the answer {text!r} read in {convention}", text, convention)]
        except Exception:  # noqa: BLE001  (the judge's internal error: nothing said)
            return None
        return []

    expected = set()
    cases = corpus.corpus()
    assert any(case.seed for case in cases)
    for case in cases:
        info = part_info(case.exercise, case.part, case.seed)
        for convention in LOCALES:
            refused = read(case.answer, convention, parse.shape_of(info.kind, info.length))
            if refused is None:
                continue
            expected.update(refused)
            if not refused:
                findings = judge(case.exercise, case.part, case.answer, seed=case.seed, convention=convention,
                                 limited=False).findings
                expected.update((f.key, f.params, f"{case.exercise} {case.part} answered {case.answer!r}", case.answer,
                                 None) for f in findings)
    for answer in corpus.grader_test_answers():
        for convention in LOCALES:
            for text in {answer, composed._with_decimal_mark(answer, convention)}:
                expected.update(read(text, convention, ()) or [])
    said = {(s.key, s.params, s.origin, s.answer, s.convention) for s in composed.answered_said()}
    assert said == expected
