"""Collects the operators to benchmark, each with the handle that runs it."""
import toynet as tn


def get_all_operators():
    """Returns {"operator_name": {"has_backward", "nd_op_handle"}} for every operator."""
    ops = {}
    for name in tn.list_operators():
        ops[name] = {"has_backward": name.startswith("_backward"),
                     "nd_op_handle": getattr(tn.nd, name)}
    return ops


def run_op(op_params):
    cached_op_handle = op_params["nd_op_handle"]
    return cached_op_handle()
