"""The base layer: what every stage uses and that knows nothing of retrieval evaluation.

``limits`` (the largest numbers a user may give), ``arguments`` (the checks of the public
functions' arguments, one ParameterError each), ``segments`` (exact sequential sums over CSR
segments), ``arrow`` (Arrow arrays to and from numpy without pandas), ``id_hashes`` (64-bit
hashes of ids from their bytes), ``optional`` (heavy optional imports, with an error naming the
extra), ``output_files`` (files written: checked first, replaced atomically) and ``progress``.
"""
