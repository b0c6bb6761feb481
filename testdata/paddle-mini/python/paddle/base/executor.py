# paddle-mini: static-graph Executor (trimmed).
import copy

from . import compiler, core, framework

__all__ = []


def _get_strong_program_cache_key(program, feed, fetch_list):
    return f"{id(program)}-{sorted(feed)}-{fetch_list}"


def _apply_inplace_addto_pass(program, enable_inplace, enable_addto, skip_vars):
    use_cuda = core.is_compiled_with_cuda()
    attrs = {"use_cuda": use_cuda, "mem_opt_skip_vars": skip_vars}
    attr_types = {"use_cuda": "bool", "mem_opt_skip_vars": "list[str]"}
    if enable_inplace:
        pass_name = "buffer_shared_inplace_pass"
        _apply_pass(program, program, pass_name, attrs, attr_types)
    if enable_addto and use_cuda:
        pass_name = "inplace_addto_op_pass"
        _apply_pass(program, program, pass_name, attrs, attr_types)


def _apply_pass(main_program, startup_program, pass_name, pass_attrs, pass_attr_types):
    pass_ = core.get_pass(pass_name)
    for name, value in pass_attrs.items():
        pass_.set(name, value, pass_attr_types[name])
    pass_.apply([main_program.desc], [startup_program.desc])


class _StandaloneExecutor:
    def __init__(self, place, plan, scope):
        self._place = core.Place()
        self._place.set_place(place)
        self._plan = plan
        self._scope = scope
        self._new_exe = core.StandaloneExecutor(self._place, plan, scope)

    def run(self, feed_names, return_numpy=True):
        return self._new_exe.run(feed_names, False)


class Executor:
    """
    Runs a Program on one place. Every program, compiled or not, is run by
    the standalone executor, built on InterpreterCore.
    """

    def __init__(self, place=None):
        self.place = framework._get_paddle_place(place)
        self._pruned_program_cache = {}
        self._pruned_program_scope_caches = {}
        self._executor = core.Executor(self.place)
        self._fleet_executor = None

    def close(self):
        self._executor.close()

    def _prune_program(self, program, feed, fetch_list):
        cache_key = _get_strong_program_cache_key(program, feed, fetch_list)
        cached = self._pruned_program_cache.get(cache_key)
        if cached is not None:
            return cached
        if isinstance(program, compiler.CompiledProgram):
            scope_cache = self._pruned_program_scope_caches.get(id(program))
            program = copy.copy(program)
            # share the local scopes of the same original CompiledProgram.
            program._share_vars_from = scope_cache
        self._pruned_program_cache[cache_key] = program
        return program

    def _run_program(self, program, scope, feed_names):
        self._executor.run(program.desc, scope, 0, True, True, feed_names)

    def _run_new_executor(self, plan, scope, feed_names):
        new_exe = _StandaloneExecutor(self.place, plan, scope)
        return new_exe.run(feed_names)

    def _run_using_fleet_executor(self, program, scope, fetch_list):
        if self._fleet_executor is None:
            self._fleet_executor = core.FleetExecutor(program.desc.serialize_to_string())
        self._fleet_executor.run(scope, fetch_list)
