"""The declarations of the significance statistics: the paired and multi-run tests
(``--test``) and the corrections of a family of p-values (``--correction``)."""

from __future__ import annotations

from cranfield.comparing.registry.statistic import Statistic

__all__ = ["CORRECTION_STATISTICS", "TEST_STATISTICS"]

_P = "lower p: stronger evidence of a difference"

TEST_STATISTICS: tuple[Statistic, ...] = (
    # -- tests --------------------------------------------------------------------------------
    Statistic(
        "test",
        "t",
        "paired Student's t-test",
        "t = mean(d) / (sd(d)/sqrt(n)), Student t with n-1 df",
        "Student (1908); scipy.stats.ttest_rel",
        _P,
        "all d = 0: t = 0, p = 1; all d equal and non-zero: t = +-inf, p = 0; n < 2 refused",
        "scipy.stats.ttest_rel",
        (
            "tests/comparing/test_compare_paired.py::test_t_test_reproduces_student_sleep_example",
            "tests/comparing/test_compare_paired.py::test_t_test_agrees_with_scipy_on_random_data",
        ),
    ),
    Statistic(
        "test",
        "wilcoxon",
        "Wilcoxon signed-rank test",
        "W+ = sum of the ranks of |d| over the non-zero d > 0",
        "Wilcoxon (1945); Magdy & Jones (SIGIR 2010) sec. 6.2; scipy.stats.wilcoxon on the "
        "non-zero differences (zero_method='wilcox', method='auto')",
        _P,
        "all d = 0: W+ = 0, p = 1",
        "scipy.stats.wilcoxon(d[d != 0])",
        (
            "tests/comparing/test_compare_paired.py::test_wilcoxon_reproduces_hollander_wolfe_example",
            "tests/comparing/test_compare_paired.py::test_wilcoxon_agrees_with_scipy_and_drops_zero_differences",
        ),
    ),
    Statistic(
        "test",
        "sign",
        "sign test",
        "wins out of wins + losses under Binomial(., 1/2); ties dropped",
        "Dixon & Mood (1946); scipy.stats.binomtest on wins vs losses",
        _P,
        "no wins and no losses: statistic 0, p = 1",
        "scipy.stats.binomtest",
        ("tests/comparing/test_compare_paired.py::test_sign_test_is_the_exact_binomial",),
    ),
    Statistic(
        "test",
        "randomization",
        "Fisher's randomization (permutation) test",
        "T = sum(d) under random sign flips; p = (1 + #{|T*| >= |T|}) / (B + 1), or count/2^n "
        "enumerated",
        "Fisher (1935) sec. 21; Smucker, Allan & Carterette (CIKM 2007)",
        _P,
        "all d = 0: p = 1",
        "scipy.stats.permutation_test (enumerated)",
        (
            "tests/comparing/test_compare_paired.py::test_randomization_exact_enumeration_matches_brute_force",
            "tests/comparing/test_compare_paired.py::test_randomization_monte_carlo_is_seeded_and_close_to_exact",
        ),
    ),
    Statistic(
        "test",
        "bootstrap",
        "paired bootstrap test (studentized, shifted to the null)",
        "t* = (mean(d*) - mean(d)) / (sd(d*)/sqrt(n)); p = (1 + #{|t*| >= |t|}) / (B + 1)",
        "Efron & Tibshirani (1993) sec. 16.4; Sakai (SIGIR 2006)",
        _P,
        "all d = 0: p = 1; n < 2 refused",
        "scipy.stats.bootstrap (same resamples)",
        (
            "tests/comparing/test_compare_paired.py::test_bootstrap_is_seeded_and_close_to_exact_enumeration",
        ),
    ),
    Statistic(
        "test",
        "tukey",
        "Tukey's HSD (two-way ANOVA: runs x queries)",
        "q = |mean_j - mean_l| / sqrt(V_E/n), P(Q_{k,(n-1)(k-1)} >= q)",
        "Tukey (1949); Carterette (TOIS 2012); scipy.stats.studentized_range",
        _P,
        "V_E = 0: q = inf, p = 0 for different means, q = 0, p = 1 for equal ones",
        "scipy.stats.studentized_range; statsmodels anova_lm (V_E)",
        (
            "tests/comparing/test_compare_corrections.py::test_tukey_error_term_is_the_two_way_anova_residual",
            "tests/comparing/test_compare_corrections.py::test_studentized_range_agrees_with_scipy",
        ),
        controls="family-wise error over all k(k-1)/2 pairs",
    ),
    Statistic(
        "test",
        "rthsd",
        "randomised Tukey HSD (permutation across runs per query)",
        "range* = max_j mean*_j - min_j mean*_j over arrangements of each query's values "
        "across the runs; p_jl = #{range* >= |mean_j - mean_l|} / N",
        "Carterette (TOIS 30(1), 2012); Sakai, Laboratory Experiments in Information "
        "Retrieval (Springer 2018)",
        _P,
        "equal means: p = 1; p >= 1/(B+1) when sampled; (k!)^n arrangements enumerated when "
        "at most --permutations and 2^24",
        "elinor RandomizedTukeyHsdTest (p = count/B, ties of the range not kept)",
        (
            "tests/comparing/test_compare_rthsd.py::test_rthsd_equals_exact_enumeration",
            "tests/comparing/test_compare_rthsd.py::test_rthsd_against_elinor_sample_output",
            "tests/comparing/test_compare_rthsd.py::test_rthsd_sampling_is_seeded_and_near_exact",
        ),
        controls="family-wise error over all k(k-1)/2 pairs",
    ),
)
"""The tests: paired, and over several runs at once."""

CORRECTION_STATISTICS: tuple[Statistic, ...] = (
    # -- corrections --------------------------------------------------------------------------
    Statistic(
        "correction",
        "none",
        "no correction",
        "p~ = p",
        "",
        _P,
        "no p-values: none",
        "",
        ("tests/comparing/test_compare_corrections.py::test_adjust_rejects_bad_input",),
        controls="nothing across pairs",
    ),
    Statistic(
        "correction",
        "bonferroni",
        "Bonferroni",
        "p~_i = min(1, m p_i)",
        "Dunn (1961), JASA 56:52-64",
        _P,
        "no p-values: none",
        "statsmodels multipletests('bonferroni')",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FWER, any dependence",
    ),
    Statistic(
        "correction",
        "holm",
        "Holm step-down",
        "p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))",
        "Holm (1979), Scand. J. Statistics 6:65-70",
        _P,
        "no p-values: none",
        "statsmodels multipletests('holm')",
        (
            "tests/comparing/test_compare_corrections.py::test_adjusted_p_values_reject_exactly_what_the_procedures_reject",
            "tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",
        ),
        controls="FWER, any dependence",
        aliases=("holm-bonferroni",),
    ),
    Statistic(
        "correction",
        "sidak",
        "Sidak",
        "p~_i = 1 - (1 - p_i)^m",
        "Sidak (1967), JASA 62:626-633",
        _P,
        "no p-values: none",
        "statsmodels multipletests('sidak')",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FWER, independent or positively orthant-dependent tests",
    ),
    Statistic(
        "correction",
        "holm-sidak",
        "Holm-Sidak step-down",
        "p~_(i) = max_{j <= i} 1 - (1 - p_(j))^(m - j + 1)",
        "Holm (1979) with Sidak's levels; Westfall & Young (1993)",
        _P,
        "no p-values: none",
        "statsmodels multipletests('holm-sidak')",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FWER, independent or positively orthant-dependent tests",
        aliases=("hs",),
    ),
    Statistic(
        "correction",
        "hochberg",
        "Simes-Hochberg step-up",
        "p~_(i) = min_{j >= i} min(1, (m - j + 1) p_(j))",
        "Hochberg (1988), Biometrika 75:800-802",
        _P,
        "no p-values: none",
        "statsmodels multipletests('simes-hochberg')",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FWER, independent or positively dependent tests (Simes' inequality)",
        aliases=("simes-hochberg", "sh"),
    ),
    Statistic(
        "correction",
        "hommel",
        "Hommel",
        "closed testing with Simes' tests: for J = m..2, c_J = min_{i<=J} J p_(m-J+i) / i; "
        "p~ = max over J of min(J p, c_J) (the last J: c_J)",
        "Hommel (1988), Biometrika 75:383-386; Wright (1992), Biometrics 48:1005-1013, "
        "adjusted p-values",
        _P,
        "no p-values: none",
        "statsmodels multipletests('hommel')",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FWER, independent or positively dependent tests (Simes' inequality)",
        aliases=("ho",),
    ),
    Statistic(
        "correction",
        "bh",
        "Benjamini-Hochberg FDR",
        "p~_(i) = min_{j >= i} min(1, m p_(j) / j)",
        "Benjamini & Hochberg (1995), JRSS B 57:289-300, sec. 3",
        _P,
        "no p-values: none",
        "statsmodels multipletests('fdr_bh'); scipy.stats.false_discovery_control",
        (
            "tests/comparing/test_compare_corrections.py::test_benjamini_hochberg_paper_example",
            "tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",
        ),
        controls="FDR, independent or positively dependent tests",
        aliases=("fdr_bh", "fdr", "benjamini-hochberg"),
    ),
    Statistic(
        "correction",
        "by",
        "Benjamini-Yekutieli FDR",
        "p~_(i) = min_{j >= i} min(1, c(m) m p_(j) / j), c(m) = sum_{i=1..m} 1/i",
        "Benjamini & Yekutieli (2001), Ann. Statist. 29:1165-1188, Theorem 1.3",
        _P,
        "no p-values: none",
        "statsmodels multipletests('fdr_by')",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FDR, any dependence",
        aliases=("fdr_by", "benjamini-yekutieli"),
    ),
    Statistic(
        "correction",
        "tsbh",
        "two-stage Benjamini-Hochberg (adaptive)",
        "stage 1: BH at alpha rejects r; if 0 < r < m, p~ = BH(p) (m - r) / m, else BH(p)",
        "Benjamini & Hochberg (2000), J. Educ. Behav. Statist. 25:60-83 (adaptive m0); "
        "statsmodels fdrcorrection_twostage(method='bh')",
        _P,
        "no p-values: none; the adjusted p-values hold at the given alpha only",
        "statsmodels multipletests('fdr_tsbh', alpha)",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FDR, independent tests",
        aliases=("fdr_tsbh", "fdr_2sbh"),
    ),
    Statistic(
        "correction",
        "tsbky",
        "two-stage Benjamini-Krieger-Yekutieli",
        "stage 1: BH at alpha/(1+alpha) rejects r; if 0 < r < m, "
        "p~ = BH(p) (1+alpha)(m - r)/m, else BH(p)(1+alpha)",
        "Benjamini, Krieger & Yekutieli (2006), Biometrika 93:491-507, Definition 6",
        _P,
        "no p-values: none; the adjusted p-values hold at the given alpha only",
        "statsmodels multipletests('fdr_tsbky', alpha)",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FDR, independent tests",
        aliases=("fdr_tsbky", "fdr_2sbky", "fdr_twostage"),
    ),
    Statistic(
        "correction",
        "gbs",
        "Gavrilov-Benjamini-Sarkar adaptive step-down",
        "q_(i) = (m + 1 - i) p_(i) / (i (1 - p_(i))); p~_(i) = min_{j >= i} max_{l <= j} q_(l)",
        "Gavrilov, Benjamini & Sarkar (2009), Ann. Statist. 37:619-629",
        _P,
        "no p-values: none; p = 1 gives q = inf, adjusted 1",
        "statsmodels multipletests('fdr_gbs')",
        ("tests/comparing/test_compare_multitest.py::test_every_correction_equals_statsmodels",),
        controls="FDR, independent tests",
        aliases=("fdr_gbs",),
    ),
    Statistic(
        "correction",
        "maxt",
        "Westfall-Young MaxT (permutation step-down)",
        "runs exchangeable within each query under the complete null; "
        "p~_(i) = max_{j <= i} P*(max_{l >= j} |t*_(l)| >= |t_(j)|), pairs ordered by |t|",
        "Westfall & Young, Resampling-Based Multiple Testing (1993); Boytsov, Belova & "
        "Westfall (SIGIR 2013)",
        _P,
        "all runs equal on every query: every p~ = 1; p~ in (0, 1] always",
        "brute-force enumeration of every within-query arrangement",
        (
            "tests/comparing/test_compare_multitest.py::test_maxt_minp_equal_brute_force_enumeration",
            "tests/comparing/test_compare_multitest.py::test_maxt_minp_sampling_is_seeded_and_near_exact",
        ),
        controls="FWER under any dependence between the pairs (subset pivotality)",
    ),
    Statistic(
        "correction",
        "minp",
        "Westfall-Young MinP (permutation step-down)",
        "as MaxT with each pair's permutation p-value p* in place of |t*|: "
        "p~_(i) = max_{j <= i} P*(min_{l >= j} p*_(l) <= p_(j))",
        "Westfall & Young, Resampling-Based Multiple Testing (1993), the minP form; "
        "Boytsov, Belova & Westfall (SIGIR 2013)",
        _P,
        "all runs equal on every query: every p~ = 1; p~ in (0, 1] always",
        "brute-force enumeration of every within-query arrangement",
        (
            "tests/comparing/test_compare_multitest.py::test_maxt_minp_equal_brute_force_enumeration",
            "tests/comparing/test_compare_multitest.py::test_maxt_minp_sampling_is_seeded_and_near_exact",
        ),
        controls="FWER under any dependence between the pairs (subset pivotality)",
    ),
)
"""The corrections of a family of p-values."""
