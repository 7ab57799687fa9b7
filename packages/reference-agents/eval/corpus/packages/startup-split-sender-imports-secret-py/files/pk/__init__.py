from . import _report
