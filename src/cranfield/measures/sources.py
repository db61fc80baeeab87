"""The sources measures cite, written once: authors, title, venue, year as a reader knows them.

A declaration's ``source=`` names the paper and the place in it (section, equation, figure,
table), e.g. ``f"{RAGHAVAN}, sec. 3.2.1, eq. 3.3"``; docs and ``cranfield measures`` show it.
"""

from __future__ import annotations

__all__ = [
    "AGRAWAL",
    "BAEZA_YATES",
    "CHAPELLE",
    "CHEN",
    "CLARKE_ICTIR",
    "CLARKE_SIGIR",
    "COOPER",
    "JARVELIN",
    "KEEN",
    "MAGDY_JONES",
    "MCSHERRY_NAJORK",
    "NDEVAL",
    "RAGHAVAN",
    "TREC_EVAL",
    "ZHAI",
]

MAGDY_JONES = (
    "Magdy & Jones, 'PRES: a score metric for evaluating recall-oriented information "
    "retrieval applications', SIGIR 2010"
)
BAEZA_YATES = "Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, 1999"
KEEN = "Keen, 'Evaluation parameters', SMART report ISR-13 (Cornell University)"
RAGHAVAN = (
    "Raghavan, Jung & Bollmann, 'A critical investigation of recall and precision as measures "
    "of retrieval system performance', ACM TOIS 7(3), 1989"
)
CHEN = "Berlin Chen, 'Retrieval Evaluation - Measures', lecture slides (NTNU)"
COOPER = (
    "Cooper, 'Expected search length: a single measure of retrieval effectiveness based on the "
    "weak ordering action of retrieval systems', American Documentation 19(1), 1968"
)
JARVELIN = (
    "Järvelin & Kekäläinen, 'Cumulated gain-based evaluation of IR techniques', ACM TOIS "
    "20(4), 2002"
)
MCSHERRY_NAJORK = (
    "McSherry & Najork, 'Computing information retrieval performance measures efficiently in "
    "the presence of tied scores', ECIR 2008"
)
TREC_EVAL = "trec_eval 10.0"
CLARKE_SIGIR = (
    "Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher & MacKinnon, 'Novelty and diversity "
    "in information retrieval evaluation', SIGIR 2008"
)
AGRAWAL = "Agrawal, Gollapudi, Halverson & Ieong, 'Diversifying search results', WSDM 2009"
CLARKE_ICTIR = (
    "Clarke, Kolla & Vechtomova, 'An effectiveness measure for ambiguous and underspecified "
    "queries', ICTIR 2009"
)
ZHAI = (
    "Zhai, Cohen & Lafferty, 'Beyond independent relevance: methods and evaluation metrics for "
    "subtopic retrieval', SIGIR 2003"
)
CHAPELLE = (
    "Chapelle, Metzler, Zhang & Grinspan, 'Expected reciprocal rank for graded relevance', "
    "CIKM 2009"
)
NDEVAL = "ndeval 4.5 (TREC Web track diversity evaluation, Clarke et al.)"
