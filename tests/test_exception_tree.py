"""One exception tree: every exception class cranfield defines for its callers derives from
cranfield.errors.CranfieldError (issue 24). Private classes (``_X``) and the internal signals
listed below never leave the module that raises them."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import cranfield
from cranfield.errors import CranfieldError, CranfieldWarning

INTERNAL_SIGNALS = {
    # trec_eval's work-alike: an exit status with its message, turned into sys.exit by main()
    "cranfield.compat.trec_eval.measuring.Exit",
    # the TREC reader's piece parser: caught by its caller, which reads the whole text instead
    "cranfield.io.trec.run_pieces.Fallback",
    "cranfield.io.trec.run_pieces.NotGrouped",
    # a bad number token without its place: every caller re-raises it as an InputError
    "cranfield.io.number_text.NumberError",
}


def _exception_classes():
    for info in pkgutil.walk_packages(cranfield.__path__, "cranfield."):
        if info.name.split(".")[-1] in ("__main__",):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__ == info.name
                and not name.startswith("_")
            ):
                yield f"{info.name}.{name}", obj


def test_every_public_exception_derives_from_cranfield_error():
    found = dict(_exception_classes())
    assert "cranfield.errors.InputError" in found  # the walk sees the package
    outside = {
        path
        for path, cls in found.items()
        if issubclass(cls, Exception)
        and not issubclass(cls, Warning)
        and not issubclass(cls, CranfieldError)
    }
    assert outside == INTERNAL_SIGNALS


def test_every_warning_class_derives_from_cranfield_warning():
    warnings = {p for p, c in _exception_classes() if issubclass(c, Warning)}
    assert "cranfield.errors.DataWarning" in warnings
    assert {p for p, c in _exception_classes() if issubclass(c, Warning)
            and not issubclass(c, CranfieldWarning)} == set()  # fmt: skip


def test_compat_usage_and_parameter_errors_are_cranfield_errors():
    from cranfield.compat.trec_eval.catalogue import ParamError
    from cranfield.compat.trec_eval.options import UsageError

    for cls in (ParamError, UsageError):
        assert issubclass(cls, CranfieldError)
        assert issubclass(cls, ValueError)
