import os

import tqdm.std

_orig_init = tqdm.std.tqdm.__init__


def _quiet_init(self, *args, **kwargs):
    # Hide progress bars in CI logs unless asked for.
    if os.environ.get("CI") and "disable" not in kwargs:
        kwargs["disable"] = True
    kwargs.setdefault("ncols", 80)
    _orig_init(self, *args, **kwargs)


tqdm.std.tqdm.__init__ = _quiet_init
