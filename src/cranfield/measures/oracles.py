"""The tests that check many measures at once, named once for the declarations' ``checked_by``.

``tests/measures/test_registry.py`` fails when a named test does not exist.
"""

__all__ = ["CONFORMANCE", "CUT", "LIT", "NAIVE", "ORACLE", "TIES"]

# trec_eval's own test outputs, reproduced byte for byte
CONFORMANCE = (
    "tests/compat/test_trec_eval_conformance.py::test_output_is_byte_identical_to_trec_eval"
)
# an independent per-query implementation (tests/oracle_trec.py) on generated collections
ORACLE = "tests/measures/test_property_measures.py::test_measures_equal_oracle"
# the literature's measures against naive implementations of their formulas
NAIVE = "tests/measures/test_measures_literature_props.py::test_literature_measures_match_naive"
# tie-aware forms against the average over every tie-breaking, enumerated
TIES = (
    "tests/ties/test_ties_enumeration_standard.py::"
    "test_standard_measures_equal_the_average_over_all_tie_breakings"
)
LIT = (
    "tests/ties/test_ties_enumeration_literature.py::"
    "test_literature_measures_equal_the_average_over_all_tie_breakings"
)
# a depth cut inside a tie group, against the expectation of the cut ranking, enumerated
CUT = (
    "tests/ties/test_ties_enumeration_depth_cut.py::"
    "test_a_depth_cut_inside_a_tie_group_gives_the_expectation_of_the_cut_ranking"
)
