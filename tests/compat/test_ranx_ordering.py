"""cranfield.compat.ranx.numba_argsort against numba's own compiled ``np.argsort`` (the sort ranx
ranks with), on arrays with ties of every size around the insertion-sort threshold."""

from __future__ import annotations

import random

import pytest

from cranfield.compat.ranx import numba_argsort, ranx_order

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def numba_sort():
    @numba.njit(cache=False)
    def argsort(a):
        return np.argsort(a)

    return lambda values: argsort(np.array(values, dtype=np.float64)).tolist()


@pytest.mark.parametrize("seed", range(4))
def test_equal_to_numbas_argsort_with_ties(numba_sort, seed):
    rng = random.Random(seed)
    for _ in range(400):
        n = rng.choice([0, 1, 2, 15, 16, 17, 31, 32, 33, rng.randint(0, 400)])
        k = rng.choice([0, 1, 2, 3, 7, 50, 10**6])
        a = [float(rng.randint(0, k)) for _ in range(n)]
        if rng.random() < 0.2:
            a.sort(reverse=rng.random() < 0.5)
        assert numba_argsort(a) == numba_sort(a), (n, k)


def test_a_run_and_a_dict_rank_as_ranx(numba_sort):
    """A Run: argsort of the negated scores; a dict: of the scores, read backwards."""
    scores = [float(x % 4) for x in range(40)]
    assert ranx_order(scores) == numba_sort([-s for s in scores])
    assert ranx_order(scores, from_dict=True) == numba_sort(scores)[::-1]


@pytest.mark.parametrize("seed", range(4))
def test_the_compiled_cores_sort_equals_numbas(numba_sort, seed):
    """``ranx_orders`` (the core's quicksort, rust/src/quicksort.rs) on many rankings at once,
    against numba's own compiled argsort of each: ties of every size around the insertion-sort
    threshold, sorted and reversed inputs, empty rankings, negative zero."""
    from cranfield.compat.ranx.ordering import ranx_orders

    rng = random.Random(100 + seed)
    lists = []
    for _ in range(300):
        n = rng.choice([0, 1, 2, 15, 16, 17, 31, 32, 33, rng.randint(0, 400)])
        k = rng.choice([0, 1, 2, 3, 7, 50, 10**6])
        a = [float(rng.randint(-k, k)) for _ in range(n)]
        if rng.random() < 0.2:
            a.sort(reverse=rng.random() < 0.5)
        if a and rng.random() < 0.1:
            a[0] = -0.0
        lists.append(a)
    assert ranx_orders(lists) == [numba_sort([-s for s in a]) for a in lists]
    assert ranx_orders(lists, from_dict=True) == [numba_sort(a)[::-1] for a in lists]


def test_the_cores_sort_refuses_offsets_that_do_not_cut_the_values():
    from cranfield import _core

    values = np.array([3.0, 1.0, 2.0])
    for offsets in ([0, 4], [1, 3], [0, 2, 1, 3], []):
        with pytest.raises(ValueError, match="do not cut the values"):
            _core.numba_argsort(values, np.array(offsets, dtype=np.int64))
    got = _core.numba_argsort(values, np.array([0, 1, 3], dtype=np.int64)).tolist()
    assert got == [0, 0, 1]  # [3.0] and [1.0, 2.0], each sorted on its own
