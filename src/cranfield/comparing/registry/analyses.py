"""The declarations of the statistics of the analyses: the intervals of a run's mean
(``--ci``), the ANOVA table, effect sizes and margins of error, a suite's effect across
collections, topic-set-size design and the meta-evaluation of a measure."""

from __future__ import annotations

from cranfield.comparing.registry.statistic import Statistic

__all__ = ["ANALYSIS_STATISTICS"]

ANALYSIS_STATISTICS: tuple[Statistic, ...] = (
    # -- intervals of a run's mean ------------------------------------------------------------
    Statistic(
        "interval",
        "t",
        "Student-t interval of the mean",
        "mean(x) +- t_{(1+c)/2, n-1} sd(x) / sqrt(n)",
        "Student (1908); scipy.stats.t.interval",
        "narrower: a more precise mean",
        "n < 2 or a NaN value: NaN with a warning; all values equal: [mean, mean] with a warning",
        "scipy.stats.t.interval(c, n - 1, loc=mean, scale=sem)",
        ("tests/results/test_evaluate_intervals.py::test_t_interval_equals_scipy",),
    ),
    Statistic(
        "interval",
        "bootstrap",
        "bootstrap percentile interval of the mean",
        "(1-c)/2 and (1+c)/2 quantiles of the means of B resamples of the queries",
        "Efron & Tibshirani, An Introduction to the Bootstrap (1993) sec. 13.3",
        "narrower: a more precise mean",
        "n < 2 or a NaN value: NaN with a warning; all values equal: [mean, mean] with a warning",
        "scipy.stats.bootstrap(method='percentile'), same seed and batch: the same bits",
        (
            "tests/results/test_evaluate_intervals.py::test_bootstrap_intervals_equal_scipy_bit_for_bit",
        ),
    ),
    Statistic(
        "interval",
        "bca",
        "bias-corrected and accelerated (BCa) bootstrap interval of the mean",
        "quantiles at Phi(z0 + (z0 + z_a)/(1 - a (z0 + z_a))), z0 from the share of resampled "
        "means below the mean, a = sum U^3 / (6 (sum U^2)^1.5) from the jackknife",
        "Efron & Tibshirani (1993) sec. 14.3; Efron (1987), JASA 82:171-185",
        "narrower: a more precise mean",
        "n < 2 or a NaN value: NaN with a warning; all values equal: [mean, mean] with a "
        "warning; undefined acceleration: the percentile interval with a warning",
        "scipy.stats.bootstrap(method='BCa'), same seed and batch: the same bits",
        (
            "tests/results/test_evaluate_intervals.py::test_bootstrap_intervals_equal_scipy_bit_for_bit",
        ),
    ),
    # -- ANOVA --------------------------------------------------------------------------------
    Statistic(
        "anova",
        "two-way",
        "two-way ANOVA without replication (runs x queries)",
        "S_A = n sum_i (x_i. - x)^2, S_B = m sum_j (x_.j - x)^2, "
        "S_E = sum_ij (x_ij - x_i. - x_.j + x)^2, phi_E = (m-1)(n-1); F = V / V_E",
        "Sakai, Laboratory Experiments in Information Retrieval (Springer 2018) ch. 3; "
        "worked example: Sakai (Corona 2015) Table 5.1",
        "higher F / lower p: the runs differ more than the residual explains",
        "one query (phi_E = 0): F, p, V_E undefined (NaN) with a warning; V_E = 0: F = inf, "
        "p = 0 for a factor that varies, F = 0, p = 1 for one that does not, with a warning",
        "statsmodels anova_lm(ols('y ~ C(run) + C(query)'))",
        (
            "tests/comparing/test_compare_anova.py::test_two_way_anova_equals_statsmodels_anova_lm",
            "tests/comparing/test_compare_anova.py::test_sakai_book_table_5_1",
            "tests/comparing/test_compare_anova.py::test_elinor_sample_precision_at_3",
            "tests/comparing/test_compare_anova.py::test_degenerate_tables_give_declared_values_and_warn",
        ),
    ),
    Statistic(
        "anova",
        "one-way",
        "one-way ANOVA (runs as groups)",
        "S_A as two-way; S_E = sum_ij (x_ij - x_i.)^2, phi_E = m(n-1); F = V_A / V_E",
        "Sakai, Laboratory Experiments in Information Retrieval (Springer 2018) ch. 3",
        "higher F / lower p: the runs differ more than the queries within a run",
        "as two-way",
        "statsmodels anova_lm(ols('y ~ C(run)')); scipy.stats.f_oneway",
        ("tests/comparing/test_compare_anova.py::test_one_way_anova_equals_statsmodels_anova_lm",),
    ),
    # -- effect sizes and margins of error ------------------------------------------------------
    Statistic(
        "effect",
        "moe",
        "margin of error of a run's mean (half width of its interval)",
        "MOE = t(alpha/2; phi_E) sqrt(V_E / n), interval x_i. +- MOE (the same for every run)",
        "Sakai, Laboratory Experiments in Information Retrieval (Springer 2018); worked "
        "example: Sakai, Joho Akusesu Hyoka Hohoron (Corona 2015) Table 5.1, MOE 0.0670",
        "lower: a more precise mean",
        "phi_E = 0: NaN with a warning; V_E = 0: 0 with a warning",
        "elinor TwoWayAnovaWithoutReplication::margin_of_error",
        (
            "tests/comparing/test_compare_anova.py::test_moe_and_effect_sizes_by_hand",
            "tests/comparing/test_compare_anova.py::test_sakai_book_table_5_1",
        ),
    ),
    Statistic(
        "effect",
        "es_e",
        "standardised effect size of a pair of runs",
        "ES_E = (x_a. - x_b.) / sqrt(V_E)",
        "Sakai, Laboratory Experiments in Information Retrieval (Springer 2018); worked "
        "example: Sakai (Corona 2015) Table 5.1 (0.5070, 0.6760, 0.1690)",
        "larger |ES_E|: a larger difference in residual standard deviations",
        "V_E = 0: +-inf (0 for equal means) with a warning; phi_E = 0: NaN",
        "elinor TukeyHsdTest::effect_sizes",
        (
            "tests/comparing/test_compare_anova.py::test_moe_and_effect_sizes_by_hand",
            "tests/comparing/test_compare_anova.py::test_elinor_sample_precision_at_3",
        ),
    ),
    # -- suites: one system's effect over a baseline across collections (cranfield suite) ---
    Statistic(
        "effect",
        "suite-difference",
        "a collection's mean paired difference over the baseline and its variance (suite)",
        "y = mean(d), v = s_d^2 / n, d = system - baseline per query",
        "the mean difference and its squared standard error; Soboroff, Meta-Analysis for "
        "Retrieval Experiments Involving Multiple Test Collections, CIKM 2018",
        "larger y: a larger gain (the sign turned for a measure where lower is better)",
        "n < 2 or every d equal (v = 0): no effect, the collection left out with a note",
        "brute force (statistics.fmean, statistics.variance); pytrec_eval's per-query values",
        (
            "tests/comparing/test_suites_meta.py::test_the_mean_difference_and_its_variance_by_brute_force",
            "tests/comparing/test_suites_run.py::test_every_figure_agrees_with_pytrec_eval_and_statsmodels",
        ),
    ),
    Statistic(
        "effect",
        "suite-hedges-g",
        "a collection's standardized paired effect (Hedges' g) and its variance (suite)",
        "g = J mean(d) / s_d, J = 1 - 3 / (4 (n - 1) - 1), v = J^2 (1/n + (mean(d)/s_d)^2 / 2n)",
        "Hedges' correction J: Borenstein, Hedges, Higgins and Rothstein, Introduction to "
        "Meta-Analysis (2009) ch. 4; v: the one-sample form of Hedges and Olkin's "
        "large-sample variance",
        "larger g: a larger gain in standard deviations of the differences",
        "n < 3 or every d equal: no effect, the collection left out with a note",
        "scipy's noncentral t (J unbiased; v 9-12% below the exact variance at n = 25)",
        (
            "tests/comparing/test_suites_meta.py::test_the_standardized_effect_is_hedges_g_of_the_differences",
            "tests/comparing/test_suites_meta.py::test_hedges_g_against_the_noncentral_t",
        ),
    ),
    Statistic(
        "effect",
        "dersimonian-laird",
        "random-effects pooled effect across collections, tau^2, Q, I^2 (suite)",
        "w = 1/v, Q = sum w (y - ybar_w)^2, tau^2 = max(0, (Q - (k-1)) / (sum w - sum w^2 / "
        "sum w)), pooled = sum y/(v + tau^2) / sum 1/(v + tau^2), I^2 = max(0, (Q - (k-1))/Q)",
        "DerSimonian and Laird, Meta-analysis in clinical trials, Controlled Clinical Trials 7 "
        "(1986), section 3; Soboroff, CIKM 2018",
        "an interval away from 0: a gain (or loss) that holds across collections",
        "one collection: tau^2 = 0, Q = 0, p of Q undefined (null in JSON); no defined effect: "
        "no meta-analysis (nan row)",
        "statsmodels combine_effects(method_re='dl') (its tau^2 not truncated at 0)",
        (
            "tests/comparing/test_suites_meta.py::test_dersimonian_laird_agrees_with_statsmodels",
            "tests/comparing/test_suites_meta.py::test_one_collection_is_its_own_pooled_effect",
        ),
    ),
    # -- topic-set-size design --------------------------------------------------------------
    Statistic(
        "design",
        "paired-t",
        "topics for a paired t-test to detect minD with power 1 - beta",
        "smallest n >= 2 with P(|T'_{n-1, sqrt(n) minD / sigma_d}| >= t_{alpha/2, n-1}) "
        ">= 1 - beta, sigma_d^2 = 2 sigma^2",
        "Sakai, Topic set size design, Information Retrieval Journal 19(3), 2016 (the "
        "t-test-based design)",
        "fewer topics: a cheaper collection for the same power",
        "sigma^2 = 0: 2 topics with a warning; beyond 10^7 topics: unmet (None) with a warning",
        "statsmodels TTestPower (power equal; n = ceil(solve_power))",
        (
            "tests/comparing/test_compare_design.py::test_t_test_and_anova_sizes_equal_statsmodels",
            "tests/comparing/test_compare_design.py::test_degenerate_designs_are_declared",
        ),
    ),
    Statistic(
        "design",
        "one-way-anova",
        "topics for one-way ANOVA over m runs to detect a range minD with power 1 - beta",
        "smallest n >= 2 with P(F'_{m-1, m(n-1), n minD^2 / (2 sigma^2)} >= "
        "F_alpha(m-1, m(n-1))) >= 1 - beta",
        "Sakai, Topic set size design, Information Retrieval Journal 19(3), 2016 (the "
        "ANOVA-based design)",
        "fewer topics: a cheaper collection for the same power",
        "as paired-t",
        "statsmodels FTestAnovaPower, f = minD / sqrt(2 m sigma^2), nobs = m n",
        ("tests/comparing/test_compare_design.py::test_t_test_and_anova_sizes_equal_statsmodels",),
    ),
    Statistic(
        "design",
        "ci-width",
        "topics for an expected interval width of at most delta",
        "smallest n >= 2 with 2 t_{alpha/2, n-1} c(n) sigma_d / sqrt(n) <= delta, "
        "c(n) = sqrt(2/(n-1)) Gamma(n/2) / Gamma((n-1)/2)",
        "Sakai, Topic set size design, Information Retrieval Journal 19(3), 2016 (the "
        "CI-based design)",
        "fewer topics: a cheaper collection for the same precision",
        "as paired-t",
        "a loop over n with scipy.stats.chi.mean (E[s] = sigma chi_{n-1} mean / sqrt(n-1))",
        ("tests/comparing/test_compare_design.py::test_interval_width_size_by_a_loop_over_n",),
    ),
    Statistic(
        "design",
        "variance",
        "the variance of a measure's per-query values from a past table",
        "sigma^2 = V_E of one-way ANOVA (within each run) or two-way ANOVA (runs x queries)",
        "Sakai, Topic set size design, Information Retrieval Journal 19(3), 2016",
        "lower: fewer topics needed",
        "one query: no estimate (error); a given --variance is used as is",
        "statsmodels anova_lm (V_E)",
        (
            "tests/comparing/test_compare_design.py::test_variance_of_a_past_table_and_the_power_it_has_now",
        ),
    ),
    # -- meta-evaluation ---------------------------------------------------------------------
    Statistic(
        "meta",
        "discriminative-power",
        "discriminative power: the share of pairs of runs with ASL < alpha, and the ASL curve",
        "#{pairs with p < alpha} / (k(k-1)/2), p by the paired bootstrap test (or rthsd, or "
        "the randomization test) of every pair",
        "Sakai, Evaluating evaluation metrics based on the bootstrap, SIGIR 2006",
        "higher: the measure tells more runs apart",
        "identical runs: p = 1 for every pair (power 0)",
        "the tests' own checks; an enumeration of sign flips for the randomization test",
        (
            "tests/comparing/test_compare_meta.py::test_discriminative_power_is_the_share_of_pairs_each_test_finds_significant",
        ),
    ),
    Statistic(
        "meta",
        "swap-rate",
        "swap rate over random splits of the queries into two disjoint sets",
        "per bin of |mean_b - mean_a| on set 1: #{pairs ordered differently by the two sets} "
        "/ #{pairs}",
        "Voorhees & Buckley, The effect of topic set size on retrieval experiment error, "
        "SIGIR 2002",
        "lower: the measure's conclusions hold on other queries",
        "a difference of 0 on either set is no swap; an empty bin has rate NaN",
        "a plain loop over the same splits",
        (
            "tests/comparing/test_compare_meta.py::test_swap_rates_equal_a_loop_over_the_same_splits",
        ),
    ),
    Statistic(
        "meta",
        "stability",
        "ranking stability under query subsampling",
        "mean and minimum over random subsets of s queries of Kendall's tau_b between the run "
        "means on the subset and on all queries",
        "Buckley & Voorhees, Evaluating evaluation measure stability, SIGIR 2000; Sakai "
        "(SIGIR 2006)",
        "higher: the ranking depends less on which queries were chosen",
        "every run with the same mean: tau undefined, left out (NaN when every subset is), "
        "with a warning",
        "a plain loop over the same subsets with scipy.stats.kendalltau",
        (
            "tests/comparing/test_compare_meta.py::test_ranking_stability_equals_a_loop_over_the_same_subsets",
        ),
    ),
)
"""Intervals, ANOVA, effect sizes, suites, design and meta-evaluation, in that order."""
