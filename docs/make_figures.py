"""Draw the small pictures of docs/curves.md from the sources' worked examples.

    PYTHONPATH=src python docs/make_figures.py      # writes docs/img/curves-*.png

Every number comes from cranfield.curves; the examples are typed from the sources (Keen,
"Evaluation Parameters", SMART report ISR-13: request Q268, Figs. 19-22, 25, 31; Baeza-Yates &
Ribeiro-Neto, *Modern Information Retrieval*, 1999: example 3.3; Raghavan, Jung & Bollmann, ACM
TOIS 7(3), 1989: example 2.1; B. Chen, "Retrieval Evaluation - Measures", lecture slides: q1,
q2).  Same inputs, same bytes.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from cranfield.curves import fallout, gain, plot, precision_recall

OUT = Path(__file__).resolve().parent / "img"
FINE = [Fraction(k, 100) for k in range(101)]
GREY = "0.7"
# Baeza-Yates & Ribeiro-Neto sec. 3.2.1: the ranking of example 3.2 (d129 at rank 8, d3 at rank 15)
RANKING = tuple(f"d{k}" for k in (123, 84, 56, 6, 8, 9, 511, 129, 187, 25, 38, 48, 250, 113, 3))


def from_ranks(queries):
    """qrels and run from {qid: (ranks of the relevant documents, R, documents ranked)}."""
    qrels, run = {}, {}
    for q, (ranks, R, n) in queries.items():
        docs = [f"{q}-r{k}" if k in ranks else f"{q}-n{k}" for k in range(1, n + 1)]
        run[q] = {d: float(n - i) for i, d in enumerate(docs)}
        qrels[q] = {d: int("-r" in d) for d in docs}
        qrels[q].update({f"{q}-u{j}": 1 for j in range(R - len(ranks))})
    return qrels, run


def figure(w=4.6, h=3.4):
    fig = Figure(figsize=(w, h), layout="constrained")
    return fig, fig.add_subplot()


def axes(ax, title, xlabel="Recall", ylabel="Precision"):
    ax.set_title(title, fontsize=9.5)
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=9)
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.05)
    ax.tick_params(labelsize=8)
    ax.grid(True, color="0.9", linewidth=0.5)
    ax.legend(fontsize=7.5, loc="lower left")


def save(fig, name):
    with matplotlib.rc_context({"svg.hashsalt": "cranfield"}):
        fig.savefig(OUT / name, dpi=100, metadata={"Software": None})


def raw(ax, qrels, run):
    df = precision_recall(qrels, run, interpolation="none")
    ax.plot(
        df["level"],
        df["value"],
        color=GREY,
        linewidth=1,
        marker=".",
        markersize=4,
        label="raw step curve (every cut-off)",
    )


def curve(qrels, run, levels=FINE, **kw):
    df = precision_recall(qrels, run, levels=levels, **kw)
    return df["level"], df["value"]


Q268 = from_ranks({"Q268": ([1, 2, 4, 6, 13], 5, 14)})


def steps_figure():
    fig, ax = figure()
    raw(ax, *Q268)
    marks = {"highest": "^", "lowest": "v", "middle": "o", "mean": "s", "ends": "D"}
    for step, m in marks.items():
        _, y = curve(*Q268, levels=[0.8], interpolation="quasi-cranfield", step=step)
        ax.plot([0.8], y, linestyle="none", marker=m, markersize=6, label=f"{step}: {y[0]:.4f}")
    axes(ax, "Keen Fig. 15: five choices on the step at recall .8 (Q268)")
    save(fig, "curves-steps.png")


def max_trec_figure():
    qrels = {"q": {"d3": 1, "d56": 1, "d129": 1}}
    run = {"q": {d: float(100 - i) for i, d in enumerate(RANKING)}}
    fig, ax = figure()
    raw(ax, qrels, run)
    styles = {"max": ("-", "o"), "trec": ("--", "s"), "trec9": (":", "^")}
    for name, (ls, m) in styles.items():
        x, y = curve(qrels, run, levels=11, interpolation=name)
        ax.plot(x, y, linestyle=ls, marker=m, markersize=4, label=name)
    axes(ax, "Baeza-Yates & Ribeiro-Neto example 3.3: max, trec, trec9")
    ax.set_ylim(0, 0.5)
    save(fig, "curves-max-trec.png")


def quasi_semi_figure():
    fig, ax = figure()
    raw(ax, *Q268)
    for name, ls in (("quasi-cranfield", "-"), ("semi-cranfield", "--")):
        x, y = curve(*Q268, interpolation=name, extrapolation=5)
        ax.plot(x, y, linestyle=ls, linewidth=1.6, label=name)
    axes(ax, "Keen Figs. 16, 17: Q268 (relevant at 1, 2, 4, 6, 13)")
    save(fig, "curves-quasi-semi.png")


def left_end_figure():
    qrels, run = from_ranks({"b": ([2, 3, 9, 12], 4, 12)})
    fig, ax = figure()
    raw(ax, qrels, run)
    styles = {1: "-", 2: "--", 3: "-.", 4: ":", 5: (0, (5, 1))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for method, ls in styles.items():
            x, y = curve(qrels, run, interpolation="quasi-cranfield", extrapolation=method)
            ax.plot(x, y, linestyle=ls, linewidth=1.4, label=f"method {method}")
    axes(ax, "Keen Figs. 19-22: left end, case b (relevant at 2, 3, 9, 12)")
    ax.legend(fontsize=7.5, loc="upper right")
    save(fig, "curves-left-end.png")


def ceiling_figure():
    def ranking(q, relevant_at, n):
        docs = iter(f"{q}R{i}" for i in range(1, 6))
        names = [next(docs) if k in relevant_at else f"{q}N{k}" for k in range(1, n + 1)]
        return {d: float(n - i) for i, d in enumerate(names)}

    qrels = {q: {f"{q}R{i}": 1 for i in range(1, 6)} for q in "abc"}
    full = {q: ranking(q, {2, 4, 7, 10, 14}, 14) for q in "abc"}
    cluster = {
        "a": ranking("a", set(), 6),
        "b": ranking("b", {3, 7}, 8),
        "c": ranking("c", {1, 3}, 4),
    }
    fig, ax = figure()
    x, y = curve({"b": qrels["b"]}, {"b": full["b"]}, interpolation="quasi-cranfield")
    ax.plot(x, y, color="0.4", linewidth=1.8, label="full search (2, 4, 7, 10, 14)")
    names = {"a": "a) cluster: none found", "b": "b) cluster: 3, 7", "c": "c) cluster: 1, 3"}
    for q, ls in (("a", ":"), ("b", "--"), ("c", "-.")):
        x, y = curve(
            {q: qrels[q]}, {q: cluster[q]}, interpolation="quasi-cranfield", reference={q: full[q]}
        )
        ax.plot(x, y, linestyle=ls, linewidth=1.5, label=names[q])
    axes(ax, "Keen Fig. 25: recall-ceiling extrapolation to the full search")
    ax.legend(fontsize=7.5, loc="upper right")
    save(fig, "curves-recall-ceiling.png")


def precall_figure():
    # Raghavan, Jung & Bollmann example 2.1: (+ - - | + + + - - - - - - -), 4 relevant in 2
    # levels of ties.
    # trec order breaks ties by docno descending: names decide who comes first in a level.
    groups = [[1, 0, 0], [1, 1, 1] + [0] * 7]

    def ordering(relevant_first):
        run, qrels, k = {}, {}, 0
        for g, members in enumerate(groups):
            for x in members:
                top = (x == 1) == relevant_first
                d = f"{'z' if top else 'a'}{k:02d}"
                run[d], qrels[d] = float(10 - g), x
                k += 1
        return {"q": qrels}, {"q": run}

    fig, ax = figure()
    x, y = curve(*ordering(True), levels=21, interpolation="ceiling", weak=True)
    ax.plot(x, y, color="C0", marker="o", markersize=3, label="ceiling, weak (PRECALL)")
    for first, ls, label in ((True, "--", "relevant first"), (False, ":", "relevant last")):
        x, y = curve(*ordering(first), levels=21, interpolation="max")
        ax.plot(x, y, color="C1", linestyle=ls, label=f"max, ties broken {label}")
    axes(ax, "Raghavan et al. example 2.1: ceiling interpolation of PRECALL")
    ax.legend(fontsize=7.5, loc="lower left")
    save(fig, "curves-precall.png")


# Keen Fig. 31: six hypothetical requests (ranks of the relevant documents)
FIG31 = {
    "A": [1, 2, 10],
    "B": [3, 4, 17],
    "C": [7, 21, 45],
    "D": [1, 2, 5, 7, 8, 9, 14, 15],
    "E": [3, 7, 10, 22, 33, 37, 49, 51],
    "F": [1, 2, 8, 10, 11, 29, 36, 47],
}


def fig31(names=FIG31):
    return from_ranks({q: (ranks, len(ranks), 60) for q, ranks in names.items()})


def averaging_figure():
    qrels, run = fig31()
    fig, ax = figure()
    for label, kw, ls in (
        ("quasi-cranfield, mean", dict(interpolation="quasi-cranfield"), "-"),
        (
            "quasi-cranfield, median",
            dict(interpolation="quasi-cranfield", statistic="median"),
            "--",
        ),
        ("pseudo-cranfield, macro", dict(cutoffs="all"), "-."),
        ("pseudo-cranfield, micro", dict(cutoffs="all", average="micro"), ":"),
    ):
        levels = None if "cutoffs" in kw else 21
        df = precision_recall(qrels, run, levels=levels, **kw)
        ax.plot(df["level"], df["value"], linestyle=ls, linewidth=1.5, label=label)
    df = precision_recall(qrels, run, cutoffs="all", best=True)
    best = df[df["run"] == "best"]
    ax.plot(
        best["level"],
        best["value"],
        color="0.45",
        linewidth=1,
        linestyle="--",
        label="pseudo-cranfield best possible",
    )
    axes(ax, "Averaging Keen's Fig. 31 requests A-F")
    ax.legend(fontsize=7, loc="upper right")
    save(fig, "curves-averaging.png")


def gain_figure():
    q1 = {
        "d3": 3,
        "d5": 3,
        "d9": 3,
        "d25": 2,
        "d39": 2,
        "d44": 2,
        "d56": 1,
        "d71": 1,
        "d89": 1,
        "d123": 1,
    }
    q2 = {"d3": 3, "d56": 2, "d129": 1}
    run = {q: {d: float(100 - i) for i, d in enumerate(RANKING)} for q in ("q1", "q2")}
    table = gain({"q1": q1, "q2": q2}, run, names=["slides"])
    fig = plot(
        table,
        title="Chen's slides: q1 and q2, averaged (micro: ratio of the averages)",
        figsize=(7.6, 3.2),
    )
    save(fig, "curves-gain.png")


def fallout_figure():
    specific = {q: FIG31[q] for q in "ABC"}
    general = {q: FIG31[q] for q in "DEF"}
    qrels, _ = fig31()
    _, run_s = fig31(specific)
    _, run_g = fig31(general)
    table = fallout(
        qrels,
        [run_s, run_g],
        names=["specific A-C", "general D-F"],
        collection_size=200,
        levels=FINE,
    )
    fig = plot(table, title="Keen sec. 8: Fig. 31 requests, N = 200", figsize=(5.2, 4.0))
    save(fig, "curves-fallout.png")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for make in (
        steps_figure,
        max_trec_figure,
        precall_figure,
        quasi_semi_figure,
        left_end_figure,
        ceiling_figure,
        averaging_figure,
        gain_figure,
        fallout_figure,
    ):
        make()
    print(f"wrote {len(list(OUT.glob('curves-*.png')))} figures to {OUT}")


if __name__ == "__main__":
    main()
