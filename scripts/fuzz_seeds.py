"""Write the seed corpus of the core's fuzz targets (rust/fuzz/, ``cargo fuzz``).

The seeds are the project's own hostile inputs, generated again rather than committed:

- the valid qrels and runs of the readers' adversarial suite (tests/io/test_io_adversarial.py,
  drawn by Hypothesis from a fixed seed) and their fixed-seed mutations (``mutate``: byte
  flips, truncation, deleted or doubled fields, joined lines, bare CRs, BOMs, NUL, bad UTF-8,
  hostile numbers and ids), decompressed where the mutation compressed them;
- every bytes literal of the reader tests (tests/io/*.py: the damaged files of
  test_io_damage.py and the others);
- slices of trec_eval's own test files and of the classic collections' qrels (the shared
  reference data, ``CRANFIELD_SHARED`` or ../shared);
- for ``numbers``, the tokens of all of these and the suite's hostile numbers; for ``join``,
  qrels and a run joined by a NUL (as fuzz_targets/join.rs splits them).

Usage: ``python scripts/fuzz_seeds.py [OUT]`` (default rust/fuzz/corpus, gitignored); prints
how many seeds each target got.  Deterministic: the same files on every run.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LEN = 4096  # the fuzz runs' -max_len (.ci/fuzz)
MUTATIONS_PER_FILE = 6


def _adversarial():
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "io"), str(ROOT / "src")]
    import test_io_adversarial as adv

    return adv


def generated() -> list[tuple[str, bytes]]:
    """(kind, text): the adversarial suite's valid files, then their mutations."""
    from hypothesis import HealthCheck, given, settings

    adv = _adversarial()
    bases: list[tuple[str, bytes]] = []
    health = [HealthCheck.too_slow, HealthCheck.filter_too_much]

    @settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=health)
    @given(file=adv._FILES)
    def collect(file: tuple[str, bytes]) -> None:
        bases.append(file)

    collect()
    out = list(bases)
    for i, (kind, base) in enumerate(bases):
        for k in range(MUTATIONS_PER_FILE):
            data, _how, text = adv.mutate(base, i * 1000 + k)
            out.append((kind, text if text is not None else data))
    return out


def literals() -> list[bytes]:
    """Every bytes literal of the reader tests."""
    found = []
    for path in sorted((ROOT / "tests" / "io").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
                found.append(node.value)
    return found


def _slices(data: bytes, size: int = 2000, count: int = 3) -> list[bytes]:
    """Up to ``count`` pieces of about ``size`` bytes, cut after a newline."""
    out = []
    start = 0
    while start < len(data) and len(out) < count:
        end = data.find(b"\n", start + size)
        end = len(data) if end < 0 else end + 1
        out.append(data[start:end])
        start = end + (len(data) // count if len(data) > count * size else 0)
    return out


def reference() -> tuple[list[bytes], list[bytes]]:
    """(qrels slices, run slices) of the shared reference data, when it is there."""
    shared = Path(os.environ.get("CRANFIELD_SHARED", ROOT.parent / "shared"))
    qrels: list[bytes] = []
    runs: list[bytes] = []
    conformance = shared / "conformance" / "trec_eval"
    for path in sorted(conformance.glob("*")) if conformance.is_dir() else []:
        if path.name.startswith(("qrels", "prefs")):
            qrels += _slices(path.read_bytes())
        elif path.name.startswith("results"):
            runs += _slices(path.read_bytes())
    for path in sorted((shared / "data").glob("*/qrels.trec")):
        qrels += _slices(path.read_bytes(), count=1)
    return qrels, runs


def tokens(texts: list[bytes]) -> set[bytes]:
    return {tok for t in texts for tok in t.split() if len(tok) <= 64}


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "rust" / "fuzz" / "corpus"
    gen = generated()
    lits = literals()
    ref_qrels, ref_runs = reference()
    runs = [d for k, d in gen if k == "run"] + ref_runs
    qrels = [d for k, d in gen if k == "qrels"] + ref_qrels
    texts = runs + qrels + lits
    adv = _adversarial()
    numbers = tokens(texts) | {n.encode() for n in adv.HOSTILE_NUMBERS}
    pairs = [q + b"\0" + r for q, r in zip(qrels, runs, strict=False)]
    pairs += [q + b"\0" + r for q in ref_qrels[:3] for r in ref_runs[:3]]
    corpus = {
        "run": texts,
        "qrels": texts,
        "numbers": sorted(numbers),
        "join": pairs,
    }
    for target, seeds in corpus.items():
        folder = out / target
        folder.mkdir(parents=True, exist_ok=True)
        kept = {s[:MAX_LEN] for s in seeds}
        for seed in kept:
            (folder / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        print(f"{target}: {len(kept)} seeds in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
