"""trec_eval's preference measures and the judgment-group averages, as registry measures:
values worked out by hand from the definitions (trec_eval 10.0 form_prefs_counts.c,
m_prefs_*.c, m_map_avgjg.c, m_P_avgjg.c, m_Rprec_mult_avgjg.c), through ``evaluate`` and
the command line; conformance with trec_eval's own outputs is in
test_trec_eval_conformance.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

import cranfield
from cranfield.errors import InputError, ParameterError


@pytest.fixture
def prefs_files(tmp_path):
    prefs = tmp_path / "q.prefs"
    # one judgment group, one sub-group: a (2) > b (1) > c (0), d (0)
    prefs.write_text("q1 jg1 s1 a 2\nq1 jg1 s1 b 1\nq1 jg1 s1 c 0\nq1 jg1 s1 d 0\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 b 1 4.0 t\nq1 Q0 a 2 3.0 t\nq1 Q0 x 3 2.0 t\nq1 Q0 c 4 1.0 t\n")
    return prefs, run


def test_prefs_by_hand(prefs_files):
    """Preferences a>b, a>c, a>d, b>c, b>d (c and d are equal).  Ranking b, a, x, c: a>b is
    not fulfilled (b above a), a>c and b>c are fulfilled with both retrieved, a>d and b>d are
    fulfilled by implication (d is not retrieved)."""
    prefs, run = prefs_files
    names = [
        "prefs_num_prefs_poss",
        "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret",
        "prefs_simp",
        "prefs_simp_ret",
        "prefs_simp_imp",
        "prefs_pair",
        "prefs_pair_ret",
        "prefs_pair_imp",
        "prefs_avgjg",
        "prefs_avgjg_ret",
        "prefs_avgjg_imp",
    ]
    res = cranfield.evaluate(_qrels(prefs), str(run), names, prefs=str(prefs))
    got = dict(zip(res.labels, res.values[0].tolist(), strict=True))
    expect = {
        "prefs_num_prefs_poss": 5,
        "prefs_num_prefs_ful": 4,
        "prefs_num_prefs_ful_ret": 2,
        "prefs_simp": Fraction(4, 5),
        "prefs_simp_ret": Fraction(2, 3),  # of the 3 pairs with both retrieved
        "prefs_simp_imp": Fraction(4, 5),  # every pair has a retrieved document
        "prefs_pair": Fraction(4, 5),  # one preference per pair of documents
        "prefs_pair_ret": Fraction(2, 3),
        "prefs_pair_imp": Fraction(4, 5),
        "prefs_avgjg": Fraction(4, 5),  # a single judgment group
        "prefs_avgjg_ret": Fraction(2, 3),
        "prefs_avgjg_imp": Fraction(4, 5),
    }
    for name, value in expect.items():
        assert got[name] == pytest.approx(float(value), abs=1e-15), name


def _qrels(prefs_path):
    """The queries the preferences judge, as a qrels dict (evaluate needs qrels)."""
    return {"q1": {"a": 2, "b": 1, "c": 0, "d": 0}}


def test_prefs_measures_need_the_preferences():
    with pytest.raises(ParameterError, match="--prefs"):
        cranfield.evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, ["prefs_simp"])


def test_prefs_from_the_command_line(cli, prefs_files, tmp_path):
    prefs, run = prefs_files
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq1 0 d 0\n")
    p = cli("evaluate", str(qrels), str(run), "-m", "prefs_simp", "--prefs", str(prefs))
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().splitlines()[2].split()[-1] == "0.8000"  # the run's row


def test_inconsistent_preferences_are_input_errors(tmp_path):
    prefs = tmp_path / "p"
    prefs.write_text("q1 jg1 s1 a 2\nq1 jg1 s1 a 0\n")  # a at two levels of one sub-group
    with pytest.raises(InputError, match="two relevance levels|both 0 and non-0"):
        cranfield.evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, ["prefs_simp"], prefs=str(prefs))


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("q1 jg1 s1 a 2\nq1 jg1 s1 b\n", 2),  # four columns
        ("q1 jg1 s1 a 2\n#q1 jg1 s1 b 1\n", 2),  # a judgment behind '#'
        ("q1 jg1 s1 a 2\nq1 jg1 s1 b nan\n", 2),
        ("q1 jg1 s1 a 2\rq1 jg1 s1 b 1\n", 1),  # a bare CR joins two lines
    ],
)
def test_damaged_preference_files_name_the_line(tmp_path, text, line):
    from cranfield.io.trec.judgment_files import read_prefs

    path = tmp_path / "p"
    path.write_text(text)
    with pytest.raises(InputError) as exc:
        read_prefs(str(path))
    assert exc.value.line == line


def test_judgment_groups_by_hand(tmp_path):
    """q1 judged by g1 (a relevant) and g2 (b relevant), q2 by g1 only; ranking a, b (q1) and
    c, d (q2): AP is 1 for g1 and 1/2 for g2 on q1 (mean 3/4), 1 on q2 (one group: no mean)."""
    groups = tmp_path / "jg"
    groups.write_text("q1 g1 a 1\nq1 g1 b 0\nq1 g2 a 0\nq1 g2 b 1\nq2 g1 c 1\n")
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0, "d": 0.5}}
    res = cranfield.evaluate(
        qrels, run, ["AP_avgjg", "P_avgjg@1", "Rprec_avgjg"], judgment_groups=str(groups)
    )
    assert res.values.tolist() == [[0.75, 0.5, 0.5], [1.0, 1.0, 1.0]]
