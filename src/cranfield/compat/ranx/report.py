"""ranx's ``Report``: its table (python-tabulate's ``simple`` format), its LaTeX table and
its dict."""

from __future__ import annotations

from typing import Any

_LABELS = {
    "hits": "Hits",
    "hit_rate": "Hit Rate",
    "precision": "P",
    "recall": "Recall",
    "f1": "F1",
    "r-precision": "R-Prec",
    "mrr": "MRR",
    "map": "MAP",
    "dcg": "DCG",
    "dcg_burges": "DCG Burges",
    "ndcg": "NDCG",
    "ndcg_burges": "NDCG Burges",
    "bpref": "BPref",
}
STAT_TESTS = {
    "fisher": "Fisher's randomization test",
    "student": "paired Student's t-test",
    "tukey": "Tukey's HSD test",
}
_CHARS = "abcdefghijklmnopqrstuvwxyz"
_SUPER = "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ۹ʳˢᵗᵘᵛʷˣʸᶻ"  # ranx's, its q included


def metric_label(m: str) -> str:
    """ranx's column heading of a metric (``NDCG@10``, ``MAP@100-l2``, ``RBP.95``)."""
    text, sep, lvl = m.partition("-l")
    name, at, k = text.partition("@")
    if name.startswith("rbp."):
        return "RBP." + name[4:] + (at + k) + (sep + lvl)
    return _LABELS.get(name, name) + (at + k) + (sep + lvl)


def _number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _simple_table(rows: list[list[str]], headers: list[str]) -> str:
    """python-tabulate's ``simple`` format as ranx prints it: a column whose every cell is a
    number is reformatted with ``g`` and aligned on the decimal point, others left-aligned;
    each column at least its heading plus 2 wide, two spaces apart, lines right-stripped."""
    cols = list(zip(*rows, strict=True)) if rows else [() for _ in headers]
    out_cols, numeric = [], []
    for col in cols:
        num = bool(col) and all(_number(c) for c in col)
        cells = [format(float(c), "g") if num and not c.lstrip("-").isdigit() else c for c in col]
        if num:
            after = [len(c) - c.index(".") - 1 if "." in c else -1 for c in cells]
            top = max(after)
            cells = [c + " " * (top - a) for c, a in zip(cells, after, strict=True)]
        out_cols.append(cells)
        numeric.append(num)
    widths = [max([len(h) + 2, *map(len, c)]) for h, c in zip(headers, out_cols, strict=True)]

    def line(cells: list[str]) -> str:
        parts = [
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    lines = [line(headers), "  ".join("-" * w for w in widths).rstrip()]
    lines += [line([c[i] for c in out_cols]) for i in range(len(rows))]
    return "\n".join(lines)


class Report:
    """ranx's ``Report``: mean scores, pairwise p-values, wins/ties/losses; ``str()`` is its
    table, :meth:`to_latex` its LaTeX table, :meth:`to_dict` its dict."""

    def __init__(
        self,
        model_names: list[str],
        results: dict[str, dict[str, float]],
        comparisons: dict[frozenset, dict[str, dict[str, Any]]],
        metrics: list[str],
        max_p: float,
        win_tie_loss: dict[tuple[str, str], dict[str, dict[str, int]]],
        rounding_digits: int = 3,
        show_percentages: bool = False,
        stat_test: str = "student",
    ) -> None:
        self.model_names = model_names
        self.results = results
        self.comparisons = comparisons
        self.metrics = metrics
        self.max_p = max_p
        self.win_tie_loss = win_tie_loss
        self.rounding_digits = rounding_digits
        self.show_percentages = show_percentages
        self.stat_test = stat_test

    def format_score(self, score: float) -> str:
        if self.show_percentages:
            digits = max(0, self.rounding_digits - 2)
            return f"%.{self.rounding_digits - 2}f" % round(score * 100, digits)
        return f"%.{self.rounding_digits}f" % round(score, self.rounding_digits)

    def _wins(self, model: str, metric: str) -> list[int]:
        """The columns of the models ``model`` is significantly better than on ``metric``."""
        return [
            j
            for j, other in enumerate(self.model_names)
            if other != model
            and self.comparisons[frozenset((model, other))][metric]["significant"]
            and self.results[model][metric] > self.results[other][metric]
        ]

    def to_table(self) -> str:
        rows = []
        for i, model in enumerate(self.model_names):
            row = [_CHARS[i], model]
            for m in self.metrics:
                sup = "".join(_SUPER[j] for j in self._wins(model, m))
                row.append(self.format_score(self.results[model][m]) + sup)
            rows.append(row)
        return _simple_table(rows, ["#", "Model", *map(metric_label, self.metrics)])

    def to_latex(self) -> str:
        best: dict[str, str | None] = {}
        for m in self.metrics:
            best_model, best_score = None, 0.0
            for model in self.model_names:
                if best_score < round(self.results[model][m], self.rounding_digits):
                    best_score = round(self.results[model][m], self.rounding_digits)
                    best_model = model
            best[m] = best_model
        preamble = (
            "========================\n% Add in preamble\n\\usepackage{graphicx}\n"
            "\\usepackage{booktabs}\n========================\n\n"
        )
        prefix = (
            "% To change the table size, act on the resizebox argument `0.8`.\n"
            "\\begin{table*}[ht]\n\\centering\n\\caption{\nOverall effectiveness of the models."
            "\nThe best results are highlighted in boldface.\nSuperscripts denote significant "
            "differences in "
            + STAT_TESTS[self.stat_test]
            + " with $p \\le "
            + str(self.max_p)
            + "$.\n}\n\\resizebox{0.8\\textwidth}{!}{\n\\begin{tabular}{c|l"
            + "|c" * len(self.metrics)
            + "}\n\\toprule\n\\textbf{\\#}\n& \\textbf{Model}"
            + "".join(f"\n& \\textbf{{{metric_label(m)}}}" for m in self.metrics)
            + " \\\\ \n\\midrule"
        )
        content = []
        for i, model in enumerate(self.model_names):
            cells = []
            for m in self.metrics:
                score = self.format_score(self.results[model][m])
                score = f"\\textbf{{{score}}}" if best[m] == model else score
                wins = self._wins(model, m)
                sup = "".join(_CHARS[j] for j in wins)
                phantoms = "".join(
                    _CHARS[j]
                    for j, other in enumerate(self.model_names)
                    if other != model and j not in wins
                )
                cells.append(f"{score}$^{{{sup}}}$\\hphantom{{$^{{{phantoms}}}$}} &")
            cells[-1] = cells[-1][:-1]
            content.append(f"{_CHARS[i]} &\n{model} &\n" + "\n".join(cells) + "\\\\")
        body = "\n".join(content).replace("_", "\\_").replace("$^{}$", "")
        suffix = "\\bottomrule\n\\end{tabular}\n}\n\\label{tab:results}\n\\end{table*}"
        return preamble + "\n" + prefix + "\n" + body + "\n" + suffix

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "stat_test": self.stat_test,
            "metrics": self.metrics,
            "model_names": self.model_names,
        }
        for a in self.model_names:
            others = [b for b in self.model_names if b != a]
            d[a] = {
                "scores": self.results[a],
                "comparisons": {
                    b: {m: self.comparisons[frozenset((a, b))][m]["p_value"] for m in self.metrics}
                    for b in others
                },
                "win_tie_loss": {b: self.win_tie_loss[(a, b)] for b in others},
            }
        return d

    def get_stat_test_label(self, stat_test: str) -> str:
        return STAT_TESTS[stat_test]

    def get_metric_label(self, m: str) -> str:
        return metric_label(m)

    def to_dataframe(self) -> Any:
        """One row per run: ``model_names`` and each metric's mean (ranx's)."""
        import pandas as pd

        df = pd.DataFrame.from_dict({n: self.results[n] for n in self.model_names}, orient="index")
        return df.reset_index().rename(columns={"index": "model_names"})

    def __str__(self) -> str:
        return self.to_table()

    __repr__ = __str__
