"""One test over the whole registry: every measure is one complete declaration.

A measure that lacks a piece (direction, undefined cases, its tie-aware form or why it has
none, its source, a test that exists, a valid trec_eval declaration, a range on each numeric
parameter) fails here, and so does a measure whose declared side inputs or micro parts do not
match what it computes, or a generated docs table that is out of date.  The recipe of
``registry.py`` runs.
"""

from __future__ import annotations

import ast
import re
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import cranfield
from cranfield.errors import MeasureError, ParameterError
from cranfield.measures import REGISTRY, parse
from cranfield.measures.registry import AGGREGATES, BETTER, NEEDS, Param

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(REGISTRY)


def _defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("name", NAMES)
def test_every_declaration_is_complete(name):
    d = REGISTRY[name]
    assert d.better in BETTER
    assert d.aggregate in AGGREGATES
    assert isinstance(d.undefined, tuple)
    for u in d.undefined:
        assert u.when and u.value and callable(u.mask)
    assert (d.tie_aware is not None) != bool(d.no_tie_aware), "a tie-aware form or why none"
    assert set(d.needs) <= set(NEEDS)
    assert d.source and d.summary and d.formula and d.family
    assert not re.search(r"seed 00\d|measures-notes", d.source + d.notes + d.formula)
    assert d.checked_by
    for ref in d.checked_by:
        file, _, func = ref.partition("::")
        path = ROOT / file
        assert path.is_file(), f"{name}: {ref}: no such test file"
        assert func in _defined_tests(path), f"{name}: {ref}: no such test"
    for p in d.all_params:
        if p.kind in ("int", "float", "gains"):
            assert p.bounds_text(), f"{name}: parameter {p.name} declares no range"
    if d.micro is not None:
        assert "micro" in d.aggregations


def test_trec_eval_names_are_declared_once_and_form_the_catalogue():
    from cranfield.compat.trec_eval.catalogue import CATALOGUE, PRINT_ORDER

    declared = [t.name for d in REGISTRY.values() for t in d.trec_eval]
    assert len(declared) == len(set(declared))
    assert [tm.name for tm in CATALOGUE] == PRINT_ORDER
    by_name = {tm.name: tm for tm in CATALOGUE}
    for d in REGISTRY.values():
        for t in d.trec_eval:
            assert by_name[t.name].measure == d.name
            assert (by_name[t.name].kind, by_name[t.name].params) == (t.kind, t.params)


# ------------------------------------------------------------------------ measure strings
def _inside(p: Param):
    """A value inside the declared range, other than the default."""
    if p.kind == "bool":
        return not p.default
    if p.kind == "str":
        return next(c for c in p.choices if c != p.default) if len(p.choices) > 1 else None
    if p.kind == "gains":
        return {1: 2, 2: 5}
    lo = p.at_least if p.at_least is not None else p.above
    hi = p.at_most if p.at_most is not None else p.below
    if p.kind == "int":
        v = max(int(lo) if lo is not None else 0, 1) + 1
        return v if hi is None or v <= hi else int(lo)
    lo = 0.0 if lo is None else float(lo)
    hi = lo + 2.0 if hi is None else float(hi)
    return float(Fraction(lo) + (Fraction(hi) - Fraction(lo)) / 4)


@pytest.mark.parametrize("name", NAMES)
def test_every_measure_string_round_trips(name):
    d = REGISTRY[name]
    params = {}
    for p in d.params:
        v = _inside(p)
        if v is not None and (d.check is None or not params):
            params[p.name] = v
    cut = None
    if d.cutoff is not None:
        cut = 0.5 if d.cutoff.kind == "float" else 7
    required = {p.name for p in d.params if p.required}
    for given in (params, {k: v for k, v in params.items() if k in required}):
        m = cranfield.Measure(name, tuple(given.items()), cut)
        try:
            m = parse(str(m))
        except MeasureError:
            if d.check is not None:
                continue  # parameters checked together (one of NR, recall, ND...)
            raise
        assert str(parse(str(m))) == str(m)
        assert parse(str(m)) == m


@pytest.mark.parametrize("name", NAMES)
def test_bad_values_are_refused_by_the_grammar_and_by_measure_objects(name):
    d = REGISTRY[name]
    for p in d.all_params:
        if p.kind != "int" or p.at_least is None:
            continue
        bad = int(p.at_least) - 1
        text = f"{name}@{bad}" if p.name == "cutoff" else f"{name}({p.name}={bad})"
        with pytest.raises(MeasureError, match=p.name):
            parse(text)
        with pytest.raises(MeasureError):
            if p.name == "cutoff":
                cranfield.Measure(name) @ bad
            else:
                cranfield.Measure(name)(**{p.name: bad})


# ----------------------------------------------------------------- what the measures compute
QRELS = {
    "q1": {"a": 2, "b": 0, "c": 1, "d": 1, "x": -1},
    "q2": {"e": 1, "f": 0},
    "q3": {"g": 0},
}
RUN = {
    "q1": {"a": 5.0, "b": 4.0, "y": 3.0, "c": 2.0, "x": 1.0},
    "q2": {"f": 3.0, "e": 2.0, "z": 2.0},
    "q3": {"g": 1.0, "h": 0.5},
}
SIDE = {"collection_size": 50, "known": {"q1": {"a": 1, "c": 1}, "q2": {"e": 1}}, "target": 2}
# preferences (qid jg jsg docno rel_level) and judgments by group (qid group docno rel) on the
# same queries, for the prefs_* and *_avgjg measures
PREFS = """q1 j1 s1 a 2\nq1 j1 s1 c 1\nq1 j1 s1 b 0\nq1 j1 s1 y 0\nq2 j1 s1 e 1\nq2 j1 s1 f 0
q3 j1 s1 g 0\n"""
GROUPS = """q1 u1 a 1\nq1 u1 b 0\nq1 u2 c 1\nq1 u2 a 0\nq2 u1 e 1\nq2 u2 f 1\nq3 u1 g 0\n"""
# subtopic judgments (qid subtopic docno judgment) for the diversity measures
SUBTOPICS = """q1 s1 a 2\nq1 s2 a 1\nq1 s2 c 1\nq1 s3 b 0\nq2 s1 e 1\nq3 s1 g 0\n"""


@pytest.fixture(scope="module")
def side(tmp_path_factory) -> dict:
    from cranfield.io.trec.judgment_files import read_judgment_groups, read_prefs
    from cranfield.io.trec.subtopics import read_subtopics

    d = tmp_path_factory.mktemp("side")
    (d / "prefs").write_text(PREFS)
    (d / "groups").write_text(GROUPS)
    (d / "subtopics").write_text(SUBTOPICS)
    return SIDE | {
        "prefs": read_prefs(d / "prefs"),
        "judgment_groups": read_judgment_groups(d / "groups"),
        "subtopics": read_subtopics(d / "subtopics"),
    }


def _string(d) -> str:
    text = d.name
    required = [p for p in d.params if p.required]
    if required:
        text += "(" + ",".join(f"{p.name}={_inside(p)}" for p in required) + ")"
    elif d.check is not None:  # parameters checked together: give the first one
        p = d.params[0]
        text += f"({p.name}={_inside(p)})"
    if d.cutoff is not None and (d.cutoff.required or d.name in ("AP", "nDCG")):
        text += "@0.5" if d.cutoff.kind == "float" else "@3"
    return text


@pytest.mark.parametrize("name", NAMES)
def test_declared_side_inputs_are_exactly_what_the_measure_needs(name, side):
    d = REGISTRY[name]
    text = _string(d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(QRELS, RUN, [text], **side)
        assert res.values.shape == (3, 1)
        for need in d.needs:
            without = {k: v for k, v in side.items() if k != need}
            with pytest.raises(ParameterError, match=need.replace("_", " ").split()[0]):
                cranfield.evaluate(QRELS, RUN, [text], **without)
        if not d.needs:
            plain = cranfield.evaluate(QRELS, RUN, [text])
            np.testing.assert_array_equal(plain.values, res.values)


@pytest.mark.parametrize("name", [n for n in NAMES if REGISTRY[n].micro is not None])
def test_declared_micro_parts_are_the_per_query_ratio(name):
    """num / den of the declared parts is the measure's per-query value where den > 0."""
    d = REGISTRY[name]
    m = parse(_string(d))
    jr = cranfield.judge(
        cranfield.read_qrels(QRELS),
        cranfield.read_run(RUN),
        collection_size=50,
        known=SIDE["known"],
        target=2,
    )
    num, den = d.micro(jr, **m.resolve())
    den = np.asarray(den, dtype=np.float64)
    value = m.compute(jr)
    ok = den > 0
    assert ok.any()
    np.testing.assert_allclose(np.asarray(num)[ok] / den[ok], value[ok], rtol=1e-12)


# ------------------------------------------------------------------------ generated docs
def test_generated_docs_tables_are_current():
    from cranfield.render.generated_docs import blocks, current

    assert current(ROOT / "docs") == blocks(), (
        "a generated docs table is out of date: run "
        "`PYTHONPATH=src python -m cranfield.render.generated_docs docs`"
    )


# ------------------------------------------------------------------------ the recipe
def test_the_recipe_runs():
    """The example of registry.py's docstring, executed: one function and its declaration."""
    import cranfield.measures.registry as registry

    doc = registry.__doc__
    code = doc[doc.index("::\n") + 3 : doc.index("The declaration's parts")]
    code = "\n".join(line[4:] for line in code.splitlines())
    namespace: dict = {}
    exec(compile(code, "<registry recipe>", "exec"), namespace)
    try:
        assert "Hits" in REGISTRY
        res = cranfield.evaluate(QRELS, RUN, ["Hits@3", "Hits(rel=2)@3"])
        # q1's top 3: a (2), b (0), y (not judged): one relevant at rel 1 and at rel 2; q2:
        # f (0), then z and e (1) tied: all three in the top 3, e relevant at rel 1 only;
        # q3: g (0), h: none
        assert res.values.tolist() == [[1.0, 1.0], [1.0, 0.0], [0.0, 0.0]]
        assert str(parse("Hits(rel=2)@3")) == "Hits(rel=2)@3"
        with pytest.raises(MeasureError, match="tie-aware"):
            cranfield.evaluate(QRELS, RUN, ["Hits@3"], ties="weak")
    finally:
        registry.unregister("Hits")
    assert "Hits" not in REGISTRY


# ------------------------------------------------------------------------ the index
def test_the_index_is_what_the_declarations_say():
    """``measures/index.py`` (which family declares which name, the aliases, the side inputs)
    equals what importing the families one by one declares, in a fresh interpreter."""
    from cranfield.measures import families, index

    built = families.build_index()
    assert built == (index.MEASURES, index.ALIASES, index.NEEDS), (
        "measures/index.py is out of date: run `python -m cranfield.measures.families`"
    )
    text = (ROOT / "src/cranfield/measures/index.py").read_text(encoding="utf-8")
    assert text == families.render_index(*built)
    # every registered measure is indexed, and every family declares some
    assert set(index.MEASURES) == set(REGISTRY)
    assert set(families.FAMILIES) == set(index.MEASURES.values())


def _fresh(code: str) -> str:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_a_measure_imports_only_its_family():
    """Looking up AP imports the module that declares it, not the diversity measures."""
    out = _fresh(
        "import sys\n"
        "from cranfield.measures import lookup, parse\n"
        "assert lookup('AP').name == 'AP'\n"
        "assert lookup('map').name == 'AP'  # alias, any case\n"
        "parse('nDCG@10')\n"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules\n"
        "             if m.startswith('cranfield.measures.')))\n"
    )
    loaded = set(eval(out))  # a printed list of module names
    assert {"ranking", "dcg"} <= loaded
    assert not loaded & {"diversity", "prefs", "cwl_models", "compatibility", "families"}


def test_listing_order_does_not_depend_on_what_was_looked_up_first():
    """The registry lists the families in FAMILIES order, each in declaration order, whatever
    was imported first (here a diversity measure, then a measure of the first family)."""
    from cranfield.measures import index

    out = _fresh(
        "from cranfield.measures import REGISTRY, lookup\n"
        "lookup('alpha_nDCG'); lookup('Compat'); lookup('NumQ')\n"
        "print('\\n'.join(REGISTRY))\n"
    )
    assert out.splitlines() == list(index.MEASURES)
    assert list(REGISTRY) == list(index.MEASURES)


def test_a_stale_index_is_slow_never_wrong():
    """A measure the index does not know (declared after the index was generated) is still
    found: every family is imported, then the name looked up again."""
    out = _fresh(
        "from cranfield.measures import index, lookup, REGISTRY\n"
        "del index.MEASURES['Bpref']\n"
        "print(lookup('Bpref').name, REGISTRY['Bpref'].name, lookup('no such measure'))\n"
    )
    assert out == "Bpref Bpref None"


def test_a_name_of_a_family_not_yet_imported_cannot_be_taken():
    """Registering a measure under a name (or alias) that a family declares fails at once, as
    when every family was imported up front, not later when the family is imported."""
    out = _fresh(
        "import sys\n"
        "from cranfield.measures.registry import measure\n"
        "assert 'cranfield.measures.rbp' not in sys.modules\n"
        "kw = dict(summary='s', formula='f', source='s', family='x', better='higher',\n"
        "          undefined=(), ties=None, no_ties='n', checked_by=('t',))\n"
        "for name in ('RBP', 'MAP'):\n"
        "    try:\n"
        "        measure(name, **kw)(lambda jr: None)\n"
        "    except ValueError as e:\n"
        "        print(e)\n"
    )
    assert out.splitlines() == [
        "measure name 'RBP' registered twice",
        "measure name 'MAP' registered twice",
    ]
