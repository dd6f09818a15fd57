"""Every feedback rule, by key: (exercise, part, answer) -> note, score."""
import re

import pytest

from grader.judging.check import check_part

CASES = [
    # lesson 1
    ("embedding-distances", "parakeet-monkey", "0.09", "squared-distance", 0),
    ("embedding-distances", "parakeet-monkey", "27*sqrt(770)/770", "cosine-for-distance", 0),
    ("embedding-distances", "parakeet-monkey", "1 - 27*sqrt(770)/770", "cosine-distance-for-distance", 0),
    ("embedding-distances", "cos-parakeet-monkey", "3/10", "distance-for-cosine", 0),
    ("embedding-distances", "cos-parakeet-monkey", "1.35", "dot-for-cosine", 0),
    ("embedding-distances", "cos-monkey-fourier", "1 - sqrt(154)/154", "cosine-distance-for-cosine", 0),
    ("embedding-distances", "parakeet-fourier", "1.8", "decimal-imprecise", 0),
    ("embedding-distances", "parakeet-fourier", "(1, 2)", "wrong-form", 0),
    ("embedding-distances", "parakeet-fourier", "7", "incorrect", 0),
    # lesson 2
    ("attention-weights", "weights", "(e/(1+2*e), e/(1+2*e), 1/(1+2*e))", "unscaled-softmax", 0),
    ("attention-weights", "weights", "(1, 1, 0)", "scores-as-weights", 0),
    ("attention-weights", "weights", "(1/2, 1/2, 0)", "scaled-as-weights", 0),
    ("attention-weights", "weights", "(e^(1/4)/(1+2*e^(1/4)), e^(1/4)/(1+2*e^(1/4)), 1/(1+2*e^(1/4)))",
     "softmax-divided-by-dk", 0),
    ("attention-weights", "weights", "(e^(1/2), e^(1/2), 1)", "exp-not-normalized", 0),
    ("attention-weights", "weights", "(0.5, 0.4, 0.3)", "weights-not-normalized", 0),
    ("attention-weights", "weights", "(1/(1+2*e^(1/2)), e^(1/2)/(1+2*e^(1/2)), e^(1/2)/(1+2*e^(1/2)))",
     "wrong-order", 1),
    ("attention-weights", "weights", "(0.38, 0.38, 0.23)", "decimal-imprecise", 0),
    ("attention-weights", "weights", "(0.3837, 0.3837, 0.3)", "weights-not-normalized", 2),
    ("attention-weights", "weights", "(1, 2)", "wrong-count", 0),
    ("attention-weights", "weights", "0.38", "wrong-form", 0),
    ("attention-weights", "scaled", "(1, 1, 0)", "scores-as-scaled", 1),
    ("attention-weights", "scaled", "(1/4, 1/4, 0)", "divided-by-dk", 1),
    ("attention-weights", "scores", "(1/2, 1/2, 0)", "scaled-as-scores", 1),
    ("attention-weights", "scores", "(1, 1, 7)", "components-wrong", 2),
    # lesson 3
    ("terrain-warmup", "lr-at-step", "0.0003*51/2000", "off-by-one-step", 0),
    ("terrain-warmup", "lr-at-step", "0.0003*49/2000", "off-by-one-step", 0),
    ("terrain-warmup", "lr-at-step", "0.0003", "peak-not-ramped", 0),
    ("terrain-warmup", "lr-at-step", "50/2000", "ramp-fraction-not-lr", 0),
    ("terrain-warmup", "step-at-fraction", "801", "off-by-one-step", 0),
    ("terrain-warmup", "step-at-fraction", "799", "off-by-one-step", 0),       # each direction: 2 detectors
    ("terrain-warmup", "step-at-fraction", "80000", "percent-vs-fraction", 0),
    ("terrain-warmup", "step-at-fraction", "0.00012", "lr-instead-of-step", 0),
    ("terrain-warmup", "first-step-ratio", "1/200", "ratio-inverted", 0),
    ("terrain-warmup", "first-step-ratio", "2000/11", "off-by-one-step", 0),
    ("terrain-warmup", "first-step-ratio", "2000/9", "off-by-one-step", 0),
    # lesson 4
    ("reachable-vertices", "vertices", "{(1,0,0),(3/4,0,1/4),(1/2,1/4,1/4),(1/2,1/2,0),(0,0,1)}",
     "removed-simplex-vertex", 3),
    ("reachable-vertices", "vertices", "{(1,0,0),(3/4,0,1/4),(1/2,1/4,1/4),(0,1,0)}",
     "removed-simplex-vertex", 2),
    ("reachable-vertices", "vertices", "{(1,0,0),(3/4,0,1/4),(1/2,1/4,1/4),(1/2,0,1/2)}",
     "point-outside-region", 2),
    ("reachable-vertices", "vertices", "{(1,0,0),(3/4,0,1/4),(1/2,1/4,1/4),(1/2,1/2,1/2)}",
     "point-outside-region", 2),
    ("reachable-vertices", "vertices", "{(1,0,0),(3/4,0,1/4),(1/2,1/4,1/4),(3/4,1/4,0)}",
     "not-a-vertex", 2),
    ("reachable-vertices", "vertices", "{(1,0,0),(1,0,0),(3/4,0,1/4),(1/2,1/4,1/4)}",
     "duplicate-point", 2),
    ("reachable-vertices", "vertices", "{(1,0,0),(3/4,0,1/4)}", "missing-points", 2),
    ("reachable-vertices", "vertices", "{(1,0),(3/4,0,1/4),(1/2,1/4,1/4),(1/2,1/2,0)}",
     "wrong-point-size", 2),
    ("reachable-vertices", "vertices", "1/2", "wrong-form", 0),
    # lesson 5
    ("submanifold-dims", "full-dim", "16", "dim-off-by-one", 0),
    ("submanifold-dims", "full-dim", "14", "dim-off-by-one", 0),
    ("submanifold-dims", "warmup-dim", "7", "dim-off-by-one", 0),
    ("submanifold-dims", "warmup-dim", "9", "pinned-for-dim", 0),
    ("submanifold-dims", "warmup-pinned", "7", "active-for-pinned", 0),
    ("submanifold-dims", "warmup-pinned", "10", "dims-subtracted", 0),
    ("submanifold-dims", "polish-dim", "14", "dim-off-by-one", 0),
    ("submanifold-dims", "polish-dim", "15", "exclusion-ignored", 0),
    ("submanifold-dims", "polish-dim", "13.5", "incorrect", 0),
]


@pytest.mark.parametrize("exercise, part, answer, note, score", CASES)
def test_feedback_rule(exercise, part, answer, note, score):
    result = check_part(exercise, part, answer)
    assert not result.correct
    assert note in result.notes, result.notes
    assert result.score == score
    assert result.feedback and not re.search(r"\{[a-z_]+\}", result.feedback)


def test_outside_region_names_the_constraint():
    r = check_part("reachable-vertices", "vertices", "{(1/2,0,1/2)}")
    assert "cap D <= 1/4" in r.feedback
    r = check_part("reachable-vertices", "vertices", "{(0,1,0)}")
    assert "floor H >= 1/2" in r.feedback
    r = check_part("reachable-vertices", "vertices", "{(1/2,1/2,1/2)}")
    assert "it breaks the condition that the coordinates sum to 1." in r.feedback     # a sentence whatever the constraint
    r = check_part("reachable-vertices", "vertices", "{(3/2,-1/2,0)}")
    assert "it breaks the condition that the weight G is at least 0." in r.feedback


@pytest.mark.parametrize("exercise, part, answer", [
    ("attention-weights", "weights", "(exp(1/2)/(1+2*exp(1/2)), sqrt(e)/(2*sqrt(e)+1), 1/(1+2*exp(1/2)))"),
    ("attention-weights", "weights", "[1/(2+exp(-1/2)), 1/(2+exp(-1/2)), 0.2325]"),
    ("reachable-vertices", "vertices", "[(1/2,1/2,0), (0.5,0.25,0.25), (1,0,0), (3/4,0,1/4)]"),
    ("reachable-vertices", "vertices", "((1/2,1/2,0), (0.5,0.25,0.25), (1,0,0), (0.75,0,0.25))"),
    ("submanifold-dims", "polish-dim", "14 - 1"),
    ("terrain-warmup", "lr-at-step", "7.5e-6"),
])
def test_equivalent_forms_are_correct(exercise, part, answer):
    result = check_part(exercise, part, answer)
    assert result.correct and result.note == "" and result.score == result.max_score
