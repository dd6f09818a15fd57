"""The grader against an independent ground truth, over thousands of generated answers.

The references are computed here again, from the lessons' data as the chapters state it, with
mpmath at 80 digits (not with the bank or SymPy). Answers are generated around each: decimals
on both sides of the tolerance's boundary (in several written forms), equivalent exact forms, and
exact forms perturbed by a tiny amount. The expected verdict follows the README's rules:

* a number (a decimal, a fraction, arithmetic on them) is accepted within 0.5 % of the reference
  (0.0005 when it is 0), unless it is nearer another part's answer;
* a whole-number part takes only the exact value;
* an exact form is accepted only when it equals the reference.

No false accept and no false reject is allowed.
"""
from __future__ import annotations

import random
from fractions import Fraction

import mpmath

from grader import bank
from grader.judging.check import judge
from grader.model import targets

MP = mpmath.MPContext()       # a context of our own at 80 digits: the grader's SymPy keeps its own
MP.dps = 80
TOLERANCE, ZERO_TOLERANCE = MP.mpf("0.005"), MP.mpf("0.0005")


def _vector(*xs):
    return [MP.mpf(x) for x in xs]


def _dot(a, b):
    return MP.fsum(x * y for x, y in zip(a, b))


def _norm(a):
    return MP.sqrt(_dot(a, a))


# --- the lessons' data, as the chapters state it, and the references computed from it ----------

def _sqrt(q: Fraction):
    """sqrt(q): an exact Fraction when q is the square of one, else an 80-digit mpf."""
    root = lambda n: int(MP.sqrt(n)) if n >= 0 else -1  # noqa: E731
    p, d = root(q.numerator), root(q.denominator)
    if p * p == q.numerator and d * d == q.denominator:
        return Fraction(p, d)
    return MP.sqrt(MP.mpf(q.numerator) / q.denominator)


WORDS = {"parakeet": [Fraction("1.0"), Fraction("0.5"), Fraction("0.0")],
         "monkey": [Fraction("1.2"), Fraction("0.3"), Fraction("0.1")],
         "fourier": [Fraction("0.0"), Fraction("0.0"), Fraction("1.5")]}
REFERENCES: dict[tuple[str, str], object] = {}
for a, b in (("parakeet", "monkey"), ("parakeet", "fourier"), ("monkey", "fourier")):
    u, v = WORDS[a], WORDS[b]
    REFERENCES[("embedding-distances", f"{a}-{b}")] = _sqrt(sum((x - y) ** 2 for x, y in zip(u, v)))
    dot = sum(x * y for x, y in zip(u, v))
    norms = _sqrt(sum(x * x for x in u) * sum(y * y for y in v))
    REFERENCES[("embedding-distances", f"cos-{a}-{b}")] = (
        dot / norms if isinstance(norms, Fraction) else MP.mpf(dot.numerator) / dot.denominator / norms)
Q, KEYS = _vector(1, 0, 1, 0), [_vector(1, 0, 0, 0), _vector(0, 0, 1, 0), _vector(0, 1, 0, 1)]
SCORES = [_dot(Q, k) for k in KEYS]
SCALED = [s / MP.sqrt(4) for s in SCORES]
WEIGHTS = [MP.exp(s) / MP.fsum(MP.exp(t) for t in SCALED) for s in SCALED]
REFERENCES[("attention-weights", "scaled")] = SCALED
REFERENCES[("attention-weights", "weights")] = WEIGHTS
REFERENCES[("terrain-warmup", "lr-at-step")] = Fraction(3, 10000) * 50 / 2000
WHOLE = {("terrain-warmup", "step-at-fraction"): 800, ("terrain-warmup", "first-step-ratio"): 200,
         ("submanifold-dims", "full-dim"): 15, ("submanifold-dims", "warmup-dim"): 6,
         ("submanifold-dims", "warmup-pinned"): 9, ("submanifold-dims", "polish-dim"): 13,
         ("attention-weights", "scores"): [1, 1, 0]}

# equivalent exact forms a student may type, and what each should equal
EXACT = {
    ("embedding-distances", "parakeet-monkey"): ["3/10", "sqrt(9/100)", "sqrt(0.09)", "(0.3)", "0.3*1", "30/100"],
    ("embedding-distances", "parakeet-fourier"): ["sqrt(14)/2", "sqrt(7/2)", "14^(1/2)/2", "sqrt(3.5)", "(7/2)^0.5"],
    ("embedding-distances", "monkey-fourier"): ["sqrt(349)/10", "sqrt(3.49)", "(349/100)^(1/2)"],
    ("embedding-distances", "cos-parakeet-monkey"): ["27*sqrt(770)/770", "1.35/sqrt(1.25*1.54)",
                                                     "27/sqrt(770)"],
    ("embedding-distances", "cos-parakeet-fourier"): ["0", "0.0", "0/5", "sin(0)"],
    ("embedding-distances", "cos-monkey-fourier"): ["sqrt(154)/154", "1/sqrt(154)", "0.15/sqrt(1.54*2.25)"],
    ("attention-weights", "scaled"): ["(1/2, 1/2, 0)", "(0.5, 0.5, 0)", "[1/sqrt(4), 1/sqrt(4), 0]"],
    ("attention-weights", "weights"): [
        "(exp(1/2)/(1+2*exp(1/2)), exp(1/2)/(1+2*exp(1/2)), 1/(1+2*exp(1/2)))",
        "(1/(2+exp(-1/2)), sqrt(e)/(2*sqrt(e)+1), 1/(1+2*exp(1/2)))",
        "(e^0.5/(1+2*e^0.5), e^0.5/(1+2*e^0.5), 1/(1+2*e^0.5))"],
    ("terrain-warmup", "lr-at-step"): ["3/400000", "0.0003*50/2000", "7.5e-6", "0.0000075", "3*10^(-4)/40"],
    ("terrain-warmup", "step-at-fraction"): ["800", "800.0", "2000*2/5", "sqrt(640000)"],
    ("terrain-warmup", "first-step-ratio"): ["200", "2000/10", "200.00", "0.0003/(0.0003*10/2000)"],
    ("submanifold-dims", "full-dim"): ["15", "16-1", "15.0"],
}


def _value(expected):
    return expected if isinstance(expected, list) else [expected]


def _number_text(x: MP.mpf, digits: int) -> str:
    return MP.nstr(x, digits, strip_zeros=False, min_fixed=-30, max_fixed=30)


def _exact(text: str) -> Fraction:
    """The exact value of a decimal text, as the README says the grader reads it."""
    return Fraction(text)


def _accepts(answer: Fraction, reference, others: list) -> bool:
    """Exact arithmetic against an exact reference; 80 digits against an irrational one (whose
    boundary no decimal can sit on)."""
    if isinstance(reference, Fraction):
        gap = abs(answer - reference)
        if gap > (Fraction(5, 10000) if reference == 0 else Fraction(5, 1000) * abs(reference)):
            return False
    else:
        a = MP.mpf(answer.numerator) / answer.denominator
        gap = abs(a - reference)
        if gap > (ZERO_TOLERANCE if reference == 0 else TOLERANCE * abs(reference)):
            return False
    a = MP.mpf(answer.numerator) / answer.denominator
    return not any(abs(a - _mp(other)) < _mp(gap) for other in others)


def _mp(x):
    return MP.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else x


def _others(exercise: str, part: str) -> list[MP.mpf]:
    """The other parts' answers of the same exercise that are single numbers."""
    return [v for (ex, p), v in REFERENCES.items() if ex == exercise and p != part and not isinstance(v, list)]


def _near_a_named_mistake(exercise: str, part: str, answer: Fraction) -> bool:
    """Answers within the tolerance of a named mistake are left out of the boundary corpus: which of
    two notes they get is not what this test is about."""
    a = float(answer)
    for _, value in targets.mistakes(bank.get(exercise), part):
        if len(value) == 1:
            v = float(value[0])
            if abs(a - v) <= 0.006 * abs(v) + 0.0006:
                return True
    return False


def corpus(seed: int = 20261130) -> list[tuple[str, str, str, bool]]:
    """(exercise, part, answer, accepted?) over every part with a number reference."""
    rng = random.Random(seed)
    cases = []
    offsets = [0, 0.001, 0.004, 0.0049, 0.00499, 0.004999, 0.0049999, 0.005, 0.0050001, 0.005001, 0.00501,
               0.0051, 0.006, 0.01, 0.05, 0.1]
    for (exercise, part), reference in REFERENCES.items():
        if isinstance(reference, list):
            continue
        others = _others(exercise, part)
        for offset in offsets:
            for sign in (1, -1):
                for digits in (4, 6, 9, 15, 25):
                    x = _mp(reference) * (1 + sign * MP.mpf(offset)) if reference != 0 else sign * MP.mpf(offset) / 10
                    text = _number_text(x, digits)
                    answer = _exact(text)
                    if _near_a_named_mistake(exercise, part, answer) and answer != 0:
                        continue
                    expected = _accepts(answer, reference, others)
                    for form in (text, f"({text})", f"{text}*1", f"[{text}]"[1:-1]):
                        cases.append((exercise, part, form, expected))
        for _ in range(200):                                   # random decimals in a wide band
            x = _mp(reference) * (1 + MP.mpf(rng.uniform(-0.02, 0.02))) if reference else MP.mpf(rng.uniform(-0.002, 0.002))
            text = _number_text(x, rng.choice((3, 4, 5, 8)))
            answer = _exact(text)
            if not _near_a_named_mistake(exercise, part, answer):
                cases.append((exercise, part, text, _accepts(answer, reference, others)))
    for (exercise, part), forms in EXACT.items():
        for form in forms:
            cases.append((exercise, part, form, True))
            # an exact form (no decimal: one with a decimal is a number, judged within the tolerance)
            if form not in ("0", "0/5", "sin(0)") and "." not in form and not form.startswith(("(", "[")):
                for k in (3, 12, 40, 200):
                    cases.append((exercise, part, f"{form}+10^(-{k})*sqrt(2)", False))   # an exact form, perturbed
    for (exercise, part), value in WHOLE.items():
        for shift in ("", "+1", "-1", "+10^(-40)", "+0.000001"):
            if isinstance(value, list):
                text = "(" + ", ".join(str(v) for v in value[:-1]) + f", {value[-1]}{shift})"
            else:
                text = f"{value}{shift}"
            cases.append((exercise, part, text, shift == ""))
    for (exercise, part), reference in REFERENCES.items():           # rounded as the part asks, or finer
        if isinstance(reference, list):
            continue
        asked = targets.figures(bank.get(exercise), part)
        for digits in range(asked, 16):
            cases.append((exercise, part, _number_text(_mp(reference), digits), True))
    # one rule for every entry: an exact form is not given the tolerance by a decimal beside it
    cases += [("attention-weights", "scaled", "(0.5, 0.5, exp(-10))", False),
              ("attention-weights", "scaled", "(0.5, 0.5, 0.0001)", True),
              ("attention-weights", "scaled", "(1/2, 1/2, exp(-10)*0)", True),
              ("embedding-distances", "parakeet-monkey", "sqrt(9)/10*(1+1/10^6)", False),
              ("embedding-distances", "parakeet-monkey", "0.3*(1+1/10^6)", True),
              ("embedding-distances", "cos-monkey-fourier", "sqrt(0.0065)", True)]
    for offset in ("0.001", "0.0049", "0.00499", "0.005", "0.0051"):      # vectors, at the boundary
        for i in range(3):
            for sign in (1, -1):
                values = [w * (1 + sign * MP.mpf(offset)) if j == i else w for j, w in enumerate(WEIGHTS)]
                texts = [_number_text(v, 20) for v in values]
                answers = [_exact(t) for t in texts]
                expected = all(_accepts(a, w, []) for a, w in zip(answers, WEIGHTS))
                cases.append(("attention-weights", "weights", "(" + ", ".join(texts) + ")", expected))
    return cases


CORPUS = corpus()


def test_the_corpus_is_large_and_balanced():
    assert len(CORPUS) >= 5000
    accepted = sum(expected for *_, expected in CORPUS)
    assert 0.2 * len(CORPUS) < accepted < 0.8 * len(CORPUS)


def test_no_false_accept_and_no_false_reject():
    wrong = []
    for exercise, part, text, expected in CORPUS:
        got = judge(exercise, part, text, limited=False).fraction == 1
        if got != expected:
            wrong.append((exercise, part, text, expected))
    assert wrong == [], f"{len(wrong)} of {len(CORPUS)} differ from the ground truth: {wrong[:10]}"
