# paddle-mini: loads libpaddle and re-exports a few private helpers.
import os
import sys

has_paddle_dy_lib = False

try:
    from .libpaddle import (
        _cleanup_mmap_fds,
        _set_cached_executor_build_strategy,
        _set_current_stream,
        _set_eager_deletion_mode,
        _set_paddle_lib_path,
    )
    from .libpaddle import *  # noqa: F403

    has_paddle_dy_lib = True
except ImportError as e:
    sys.stderr.write(f"Error: cannot import libpaddle: {e}\n")
    raise


def set_paddle_lib_path():
    site_dirs = [os.path.dirname(__file__)]
    for d in site_dirs:
        if os.path.exists(os.path.join(d, "libs")):
            _set_paddle_lib_path(os.path.join(d, "libs"))
            return
